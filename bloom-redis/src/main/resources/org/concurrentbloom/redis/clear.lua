-- clear: empties one partition at one instant: a zero string again and count 0; the id stays, so the
-- clients attached to it stay attached. Returns 1.
local _, err = check_filter(KEYS[1], KEYS[2])
if err then return err end
err = acl_check('DEL', KEYS[1]) or acl_check('SETBIT', KEYS[1], '0', '0') or acl_check('HSET', KEYS[2], 'count', '0')
if err then return err end
redis.call('DEL', KEYS[1])
redis.call('SETBIT', KEYS[1], tonumber(ARGV[3]) - 1, 0)
redis.call('HSET', KEYS[2], 'count', 0)
return 1
