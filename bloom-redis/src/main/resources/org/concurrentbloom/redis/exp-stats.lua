-- exp-stats: for each slot of the window, oldest first, its generation's set bits (BITCOUNT) and count
-- of new adds, 0 and 0 where none was written, read at one instant: {set bits 1, count 1, ...}.
-- Writes nothing.
local ctx, err = exp_context(KEYS[1])
if err then return err end
err = exp_check_window(ctx)
if err then return err end
local out = {}
for slot = ctx.cur - ctx.g + 1, ctx.cur do
  if exp_listed(ctx, slot) then
    out[#out + 1] = redis.call('BITCOUNT', exp_bits_key(ctx, slot))
    out[#out + 1] = ctx.counts[slot % ctx.g]
  else
    out[#out + 1] = 0
    out[#out + 1] = 0
  end
end
return out
