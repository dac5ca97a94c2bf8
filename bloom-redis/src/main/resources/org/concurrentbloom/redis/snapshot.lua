-- snapshot: returns {n, p, count, bits} of one partition, read at one instant.
local count, err = check_filter(KEYS[1], KEYS[2], true)
if err then return err end
local meta = redis.call('HMGET', KEYS[2], 'n', 'fpp')
return {meta[1], meta[2], count, redis.call('GET', KEYS[1])}
