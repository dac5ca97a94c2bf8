-- create: ARGV[6] n, ARGV[7] p (descriptive, stored for attach), ARGV[8] '1' to write or '0' for a dry
-- run that only checks. Creates an empty partition (a zero string of ceil(m/8) bytes, made server-side,
-- and its metadata) unless one exists. Returns 1 if it created (or would), 0 if a partition of the same
-- shape was already there; an error, having written nothing, if the stored shape differs or the bit key
-- holds something this library did not make.
local stored = redis.call('HMGET', KEYS[2], 'version')
if stored[1] then
  local err = check_shape(KEYS[1], KEYS[2])
  if err then return err end
  return 0
end
if redis.call('EXISTS', KEYS[1]) == 1 then
  return redis.error_reply('BLOOMFOREIGN ' .. KEYS[1] .. ' exists without ' .. KEYS[2]
      .. ': it was not made by this library; delete it or choose another name')
end
if ARGV[8] ~= '1' then
  return 1
end
redis.call('SETBIT', KEYS[1], tonumber(ARGV[3]) - 1, 0)
redis.call('HSET', KEYS[2], 'version', ARGV[1], 'strategy', ARGV[2], 'm', ARGV[3], 'k', ARGV[4],
    'partitions', ARGV[5], 'n', ARGV[6], 'fpp', ARGV[7], 'count', 0)
return 1
