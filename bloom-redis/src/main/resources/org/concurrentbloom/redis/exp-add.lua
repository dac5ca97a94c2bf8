-- exp-add: ARGV[11..] are the item's k bit offsets. Answers whether a listed generation of the window
-- already held all k bits (checked before writing), then sets them in the current slot's generation
-- (starting that generation if the slot is new: the generation it replaces in its ring position is out
-- of the window, and is deleted), counts the add in the slot if it was new, and records the slot as
-- the highest used. Returns 1 if the item was new, else 0. Every check comes before the first write,
-- so a call refused for bad offsets, lost or foreign data, or a user's missing rights writes nothing.
local ctx, err = exp_context(KEYS[1])
if err then return err end
err = check_offsets(11, #ARGV, ARGV[3]) or exp_check_window(ctx)
if err then return err end
local pos = ctx.cur % ctx.g
local bits = exp_bits_key(ctx, ctx.cur)
local fresh = ctx.slots[pos] ~= ctx.cur
local old
if fresh then
  -- A key under this slot's name that the directory does not list is a leftover of a filter that lost
  -- its metadata: replaced, if it looks like one of ours.
  local _, lerr = exp_check_string(ctx, bits)
  if lerr then return lerr end
  if ctx.slots[pos] then
    old = exp_bits_key(ctx, ctx.slots[pos])
  end
elseif ctx.counts[pos] >= MAX_EXACT then
  return bad_field(ctx.meta, 'c' .. pos, exp_int(ctx.counts[pos]), 'a count below 2^53 - 1')
end
err = acl_check('SETBIT', bits, '0', '1') or acl_check('HSET', ctx.meta, 'high', '0')
    or acl_check('HINCRBY', ctx.meta, 'c' .. pos, '1') or (fresh and acl_check('DEL', bits)) or nil
if err then return err end
local seen = exp_any_has_all(ctx, 11)
if fresh then
  if old then
    redis.call('DEL', old)
  end
  redis.call('DEL', bits)
  -- Full length from the start, as the other filters' strings are: the length check then finds foreign data.
  redis.call('SETBIT', bits, ctx.m - 1, 0)
  redis.call('HSET', ctx.meta, 's' .. pos, exp_int(ctx.cur), 'c' .. pos, 0)
end
for i = 11, #ARGV do
  redis.call('SETBIT', bits, ARGV[i], 1)
end
if seen == 0 then
  redis.call('HINCRBY', ctx.meta, 'c' .. pos, 1)
end
if ctx.cur > ctx.high then
  redis.call('HSET', ctx.meta, 'high', exp_int(ctx.cur))
end
return 1 - seen
