-- query: ARGV[6..] are the item's k bit offsets. Returns 1 if all are set, else 0. Writes nothing.
local err = check_shape(KEYS[1], KEYS[2])
if err then return err end
for i = 6, #ARGV do
  if redis.call('GETBIT', KEYS[1], ARGV[i]) == 0 then
    return 0
  end
end
return 1
