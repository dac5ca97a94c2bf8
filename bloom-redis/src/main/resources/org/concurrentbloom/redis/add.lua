-- add: ARGV[7..] are the item's k bit offsets. Sets them all and, if any was 0, adds 1 to the count.
-- Returns 1 if a bit changed, else 0. Every check (the filter, the offsets, the count, the user's
-- rights to SETBIT and HINCRBY) comes before the first write, so a refused call writes nothing.
local count, err = check_filter(KEYS[1], KEYS[2], true)
if err then return err end
err = check_offsets(7, #ARGV, ARGV[3])
  or acl_check('SETBIT', KEYS[1], '0', '1')
  or acl_check('HINCRBY', KEYS[2], 'count', '1')
if err then return err end
local changed = 0
for i = 7, #ARGV do
  if redis.call('SETBIT', KEYS[1], ARGV[i], 1) == 0 then
    changed = 1
  end
end
if changed == 1 then
  redis.call('HINCRBY', KEYS[2], 'count', 1)
end
return changed
