-- guard-publish: KEYS = {state, new meta, old live bits, old live meta}, the last pair only when a
-- generation is live. ARGV[1] the generation to publish, ARGV[2] the live one it replaces ('0': none),
-- ARGV[3] the keys to add to its key count (the scan's rows), ARGV[4] the watermark its scan reached
-- ('' if none).
-- In one atomic step: makes it live, clears pending, and deletes the replaced generation (every script
-- checks the state first, so none reads or writes that one afterwards). Refuses, writing nothing,
-- unless it is still the pending generation: a rebuild that lost its lock may have been replaced.
-- Returns 1 if it already holds more keys than its capacity n (and marks it so), else 0.
local live, pending = state()
if pending ~= ARGV[1] then
  return redis.error_reply('BLOOMSUPERSEDED generation ' .. ARGV[1] .. ' is no longer pending (pending: '
      .. pending .. '): another rebuild replaced it')
end
if live ~= ARGV[2] then
  return redis.error_reply('BLOOMSTATE the live generation is ' .. live .. ', not ' .. ARGV[2]
      .. ' as when generation ' .. ARGV[1] .. ' was registered')
end
if redis.call('EXISTS', KEYS[2]) == 0 then
  return redis.error_reply('BLOOMMISSING no generation metadata at ' .. KEYS[2])
end
local counters, err = gen_counters(KEYS[2])
err = err or acl_check('HINCRBY', KEYS[2], 'keys', '1') or acl_check('HSET', KEYS[1], 'live', ARGV[1])
if err then return err end
local keys = redis.call('HINCRBY', KEYS[2], 'keys', ARGV[3])
if ARGV[4] ~= '' then
  redis.call('HSET', KEYS[2], 'watermark', ARGV[4])
end
redis.call('HSET', KEYS[1], 'live', ARGV[1])
redis.call('HDEL', KEYS[1], 'pending')
if live ~= '0' then
  redis.call('DEL', KEYS[3], KEYS[4])
end
if keys > counters[3] and redis.call('HSETNX', KEYS[2], 'grow', 1) == 1 then
  return 1
end
return 0
