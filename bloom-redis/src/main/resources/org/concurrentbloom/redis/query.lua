-- query: ARGV[7..] are the item's k bit offsets. Returns 1 if all are set, else 0. Writes nothing.
local _, err = check_filter(KEYS[1], KEYS[2])
if err then return err end
return all_set(KEYS[1], 7)
