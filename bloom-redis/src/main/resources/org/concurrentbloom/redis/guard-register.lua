-- guard-register: KEYS = {state, lock, new bits, new meta, old pending bits, old pending meta}, the last
-- pair only when the client expects a pending generation. ARGV[1] the rebuild lock's token, ARGV[2] the
-- pending generation the client expects ('0': none), ARGV[3] the new generation's number, ARGV[4..8]
-- its version, strategy, m, k and n (capacity), ARGV[9] its fpp, ARGV[10] its count, ARGV[11] its bits
-- in Redis order (exactly ceil(m/8) bytes), or '' for an empty filter, ARGV[12] its id (random: a
-- number is reused when Redis loses the state, an id is not).
-- In one atomic step: creates the generation, makes it the pending one, and deletes the generation it
-- replaces as pending (an abandoned rebuild's: no script can reach it afterwards, since each checks the
-- state). Refuses, writing nothing, unless the caller holds the lock. Returns the live generation (the
-- one its publish will replace), or {live, pending} when the pending one is not the expected one.
if redis.call('GET', KEYS[2]) ~= ARGV[1] then
  return redis.error_reply('BLOOMLOCK ' .. KEYS[2] .. ' is not held by this rebuild (its lease expired)')
end
local live, pending = state()
if pending ~= ARGV[2] then
  return {live, pending}
end
if live == ARGV[3] or pending == ARGV[3] then
  return redis.error_reply('BLOOMSTATE generation ' .. ARGV[3] .. ' is already in use')
end
local m = tonumber(ARGV[6])
if ARGV[11] ~= '' and #ARGV[11] ~= math.floor((m + 7) / 8) then
  return redis.error_reply('BLOOMARG ' .. #ARGV[11] .. ' bytes of bits for m=' .. ARGV[6])
end
local err = acl_check('DEL', KEYS[3]) or acl_check('SET', KEYS[3], 'x') or acl_check('HSET', KEYS[4], 'm', '1')
    or acl_check('HSET', KEYS[1], 'pending', ARGV[3])
if err then return err end
-- Keys under a fresh number that the state does not name are leftovers of a state Redis lost: no
-- script can reach them, so they go.
redis.call('DEL', KEYS[3], KEYS[4])
if ARGV[11] == '' then
  redis.call('SETBIT', KEYS[3], m - 1, 0)
else
  redis.call('SET', KEYS[3], ARGV[11])
end
redis.call('HSET', KEYS[4], 'version', ARGV[4], 'strategy', ARGV[5], 'm', ARGV[6], 'k', ARGV[7],
    'partitions', 1, 'n', ARGV[8], 'fpp', ARGV[9], 'count', ARGV[10], 'keys', ARGV[10], 'deletes', 0,
    'id', ARGV[12])
if pending ~= '0' then
  redis.call('DEL', KEYS[5], KEYS[6])
end
redis.call('HSET', KEYS[1], 'pending', ARGV[3])
return live
