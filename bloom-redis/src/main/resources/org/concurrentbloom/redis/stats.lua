-- stats: returns {set bits, count} of one partition, read at one instant.
local count, err = check_filter(KEYS[1], KEYS[2], true)
if err then return err end
return {redis.call('BITCOUNT', KEYS[1]), count}
