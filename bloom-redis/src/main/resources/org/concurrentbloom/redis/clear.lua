-- clear: empties one partition at one instant: a zero string again and count 0. Returns 1.
local err = check_shape(KEYS[1], KEYS[2])
if err then return err end
redis.call('DEL', KEYS[1])
redis.call('SETBIT', KEYS[1], tonumber(ARGV[3]) - 1, 0)
redis.call('HSET', KEYS[2], 'count', 0)
return 1
