-- exp-query: ARGV[10..] are the item's k bit offsets. Returns 1 if some remembered generation (slots
-- cur-G+1 .. cur) holds all of them, else 0. Writes nothing.
local ctx, err = exp_context(KEYS[1])
if err then return err end
for slot = ctx.cur - ctx.g + 1, ctx.cur do
  local key = exp_bits_key(ctx, slot)
  local present, berr = exp_check_bits(ctx, key)
  if berr then return berr end
  if exp_has_all(key, present, 10) == 1 then
    return 1
  end
end
return 0
