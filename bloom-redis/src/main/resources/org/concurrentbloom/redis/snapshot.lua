-- snapshot: returns {n, p, count, bits} of one partition, read at one instant.
local err = check_shape(KEYS[1], KEYS[2])
if err then return err end
local meta = redis.call('HMGET', KEYS[2], 'n', 'fpp', 'count')
return {meta[1], meta[2], meta[3], redis.call('GET', KEYS[1])}
