-- exp-clear: deletes the bit strings and counters of every remembered generation, keeping the metadata
-- (older slots' keys are never read again and Redis drops them at their expiry). Returns the number of
-- keys deleted. Refuses, having deleted nothing, if any of those keys holds data this library did not write.
local ctx, err = exp_context(KEYS[1])
if err then return err end
local cerr = exp_check_all(ctx)
if cerr then return cerr end
local deleted = 0
for slot = ctx.cur - ctx.g + 1, ctx.cur do
  deleted = deleted + redis.call('DEL', exp_bits_key(ctx, slot), exp_count_key(ctx, slot))
end
return deleted
