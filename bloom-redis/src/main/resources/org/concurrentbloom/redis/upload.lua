-- upload: ARGV[6] n, ARGV[7] p, ARGV[8] count, ARGV[9] the bits in Redis order (docs/FORMAT.md),
-- exactly ceil(m/8) bytes. Stores a whole filter in one step. Refuses, writing nothing, if either key
-- exists: an upload never overwrites a filter.
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[2]) == 1 then
  return redis.error_reply('BLOOMEXISTS ' .. KEYS[1] .. ' or ' .. KEYS[2]
      .. ' already exists; an upload does not overwrite, delete the filter first')
end
local bytes = math.floor((tonumber(ARGV[3]) + 7) / 8)
if #ARGV[9] ~= bytes then
  return redis.error_reply('BLOOMARG ' .. #ARGV[9] .. ' bytes of bits for m=' .. ARGV[3] .. ', expected ' .. bytes)
end
redis.call('SET', KEYS[1], ARGV[9])
redis.call('HSET', KEYS[2], 'version', ARGV[1], 'strategy', ARGV[2], 'm', ARGV[3], 'k', ARGV[4],
    'partitions', ARGV[5], 'n', ARGV[6], 'fpp', ARGV[7], 'count', ARGV[8])
return 1
