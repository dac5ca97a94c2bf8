-- add: ARGV[6..] are the item's k bit offsets. Sets them all and, if any was 0, adds 1 to the count.
-- Returns 1 if a bit changed, else 0. Every offset is checked before the first write, so a bad call
-- writes nothing.
local err = check_shape(KEYS[1], KEYS[2])
if err then return err end
local m = tonumber(ARGV[3])
for i = 6, #ARGV do
  local offset = tonumber(ARGV[i])
  if not offset or offset < 0 or offset >= m then
    return redis.error_reply('BLOOMARG bit offset ' .. ARGV[i] .. ' is outside [0, ' .. ARGV[3] .. ')')
  end
end
local changed = 0
for i = 6, #ARGV do
  if redis.call('SETBIT', KEYS[1], ARGV[i], 1) == 0 then
    changed = 1
  end
end
if changed == 1 then
  redis.call('HINCRBY', KEYS[2], 'count', 1)
end
return changed
