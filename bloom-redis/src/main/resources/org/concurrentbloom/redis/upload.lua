-- upload: ARGV[7] n, ARGV[8] p, ARGV[9] count, ARGV[10] the bits in Redis order (docs/FORMAT.md),
-- exactly ceil(m/8) bytes; ARGV[6] the new filter's id. Stores a whole filter in one step. Refuses,
-- writing nothing, if either key exists: an upload never overwrites a filter.
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[2]) == 1 then
  return redis.error_reply('BLOOMEXISTS ' .. KEYS[1] .. ' or ' .. KEYS[2]
      .. ' already exists; an upload does not overwrite, delete the filter first')
end
local bytes = math.floor((tonumber(ARGV[3]) + 7) / 8)
if #ARGV[10] ~= bytes then
  return redis.error_reply('BLOOMARG ' .. #ARGV[10] .. ' bytes of bits for m=' .. ARGV[3] .. ', expected ' .. bytes)
end
if not strict_int(ARGV[9]) then
  return redis.error_reply('BLOOMARG count ' .. ARGV[9] .. ' is not a decimal integer in [0, 2^53)')
end
local err = acl_check('SET', KEYS[1], ARGV[10]) or acl_check('HSET', KEYS[2], 'version', ARGV[1])
if err then return err end
redis.call('SET', KEYS[1], ARGV[10])
redis.call('HSET', KEYS[2], 'version', ARGV[1], 'strategy', ARGV[2], 'm', ARGV[3], 'k', ARGV[4],
    'partitions', ARGV[5], 'id', ARGV[6], 'n', ARGV[7], 'fpp', ARGV[8], 'count', ARGV[9])
return 1
