-- exp-clear: forgets every item: deletes every generation the directory lists and empties the
-- directory, keeping the rest of the metadata (the id, so instances stay attached, and high). A listed
-- generation that is gone is no obstacle: clearing is also how a filter that lost a generation is made
-- whole (and empty) again. Returns the number of keys deleted. Refuses, having deleted nothing, if a
-- listed key holds data this library did not write.
local ctx, err = exp_context(KEYS[1])
if err then return err end
for p = 0, ctx.g - 1 do
  if ctx.slots[p] then
    local _, serr = exp_check_string(ctx, exp_bits_key(ctx, ctx.slots[p]))
    if serr then return serr end
  end
end
err = acl_check('DEL', KEYS[1]) or acl_check('HDEL', KEYS[1], 's0')
if err then return err end
local deleted = 0
for p = 0, ctx.g - 1 do
  if ctx.slots[p] then
    deleted = deleted + redis.call('DEL', exp_bits_key(ctx, ctx.slots[p]))
    redis.call('HDEL', KEYS[1], 's' .. p, 'c' .. p)
  end
end
return deleted
