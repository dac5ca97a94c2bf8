-- exp-add: ARGV[10..] are the item's k bit offsets. Answers whether any remembered generation already
-- held all k bits (checked before writing), then sets them in the current slot's generation, raises the
-- expiry of its keys, counts the add in that slot if it was new, and records the slot as the highest
-- used. Returns 1 if the item was new, else 0. Every key is checked before the first write, so a call
-- refused for bad offsets or foreign data writes nothing.
local ctx, err = exp_context(KEYS[1])
if err then return err end
for i = 10, #ARGV do
  local offset = tonumber(ARGV[i])
  if not offset or offset < 0 or offset >= ctx.m then
    return redis.error_reply('BLOOMARG bit offset ' .. ARGV[i] .. ' is outside [0, ' .. ARGV[3] .. ')')
  end
end
local cerr = exp_check_all(ctx)
if cerr then return cerr end
local seen = 0
for slot = ctx.cur - ctx.g + 1, ctx.cur do
  local key = exp_bits_key(ctx, slot)
  if exp_has_all(key, redis.call('EXISTS', key) == 1, 10) == 1 then
    seen = 1
    break
  end
end
local bits = exp_bits_key(ctx, ctx.cur)
if redis.call('EXISTS', bits) == 0 then
  -- Full length from the start, as the other filters' strings are: the length check then finds foreign data.
  redis.call('SETBIT', bits, ctx.m - 1, 0)
end
for i = 10, #ARGV do
  redis.call('SETBIT', bits, ARGV[i], 1)
end
exp_expire(ctx, bits)
if seen == 0 then
  local counter = exp_count_key(ctx, ctx.cur)
  redis.call('INCR', counter)
  exp_expire(ctx, counter)
end
if ctx.cur > ctx.high then
  redis.call('HSET', KEYS[1], 'high', exp_int(ctx.cur))
end
return 1 - seen
