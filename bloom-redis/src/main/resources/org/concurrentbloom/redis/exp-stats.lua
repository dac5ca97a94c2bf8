-- exp-stats: for each remembered generation, oldest first, its set bits (BITCOUNT) and its count of new
-- adds, read at one instant: {set bits 1, count 1, ..., set bits G, count G}. Writes nothing.
local ctx, err = exp_context(KEYS[1])
if err then return err end
local cerr = exp_check_all(ctx)
if cerr then return cerr end
local out = {}
for slot = ctx.cur - ctx.g + 1, ctx.cur do
  local key = exp_bits_key(ctx, slot)
  local set = 0
  if redis.call('EXISTS', key) == 1 then
    set = redis.call('BITCOUNT', key)
  end
  local count = exp_read_count(exp_count_key(ctx, slot))
  out[#out + 1] = set
  out[#out + 1] = count
end
return out
