-- exp-open: ARGV[10] n, ARGV[11] p (descriptive, stored for later instances). Creates the metadata of
-- an expiring filter whose first slot begins now (ARGV[9], or the server's TIME), unless it exists.
-- Returns {1, n, p, origin} if it created, {0, stored n, stored p, stored origin} if a filter of the
-- same shape was there; an error, having written nothing, if the key holds another shape or data this
-- library did not write.
if key_type(KEYS[1]) ~= 'none' then
  local _, err = exp_check_meta(KEYS[1])
  if err then return err end
  local stored = redis.call('HMGET', KEYS[1], 'n', 'fpp', 'origin')
  return {0, stored[1], stored[2], stored[3]}
end
local origin = ARGV[9]
if origin == '' then
  origin = exp_int(exp_server_now())
end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'kind', 'expiring', 'strategy', ARGV[2], 'm', ARGV[3], 'k', ARGV[4],
    'generations', ARGV[5], 'span', ARGV[6], 'window', ARGV[7], 'clock', ARGV[8], 'origin', origin, 'high', 0,
    'n', ARGV[10], 'fpp', ARGV[11])
return {1, ARGV[10], ARGV[11], origin}
