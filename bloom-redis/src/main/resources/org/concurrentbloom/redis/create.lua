-- create: ARGV[6] n, ARGV[7] p (descriptive, stored for attach), ARGV[8] '1' to write or '0' for a dry
-- run that only checks, ARGV[9] '1' to refuse a partition that already exists (create, never attach).
-- Creates an empty partition (a zero string of ceil(m/8) bytes, made server-side, and its metadata)
-- unless one exists. Returns {1, n, p} if it created (or would), {0, stored n, stored p} if a partition
-- of the same shape was already there; an error, having written nothing, if the stored shape differs,
-- if either key holds data this library did not make (another application's hash, a string, a list),
-- or, with ARGV[9] = '1', if the partition exists.
if key_type(KEYS[2]) ~= 'none' then
  local err = check_shape(KEYS[1], KEYS[2])
  if err then return err end
  if ARGV[9] == '1' then
    return redis.error_reply('BLOOMEXISTS ' .. KEYS[2] .. ' already holds a filter; create-new does not attach')
  end
  local stored = redis.call('HMGET', KEYS[2], 'n', 'fpp')
  return {0, stored[1], stored[2]}
end
local t = key_type(KEYS[1])
if t ~= 'none' then
  return redis.error_reply('BLOOMFOREIGN ' .. KEYS[1] .. ' (a ' .. t .. ') exists without ' .. KEYS[2]
      .. ': it was not made by this library; delete it or choose another name')
end
if ARGV[8] ~= '1' then
  return {1, ARGV[6], ARGV[7]}
end
redis.call('SETBIT', KEYS[1], tonumber(ARGV[3]) - 1, 0)
redis.call('HSET', KEYS[2], 'version', ARGV[1], 'strategy', ARGV[2], 'm', ARGV[3], 'k', ARGV[4],
    'partitions', ARGV[5], 'n', ARGV[6], 'fpp', ARGV[7], 'count', 0)
return {1, ARGV[6], ARGV[7]}
