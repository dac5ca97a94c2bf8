-- stats: returns {set bits, count} of one partition, read at one instant.
local err = check_shape(KEYS[1], KEYS[2])
if err then return err end
return {redis.call('BITCOUNT', KEYS[1]), tonumber(redis.call('HGET', KEYS[2], 'count'))}
