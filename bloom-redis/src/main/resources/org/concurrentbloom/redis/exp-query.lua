-- exp-query: ARGV[11..] are the item's k bit offsets. Returns 1 if a listed generation of the window
-- (slots cur-G+1 .. cur) holds all of them, else 0. Writes nothing.
local ctx, err = exp_context(KEYS[1])
if err then return err end
err = exp_check_window(ctx)
if err then return err end
return exp_any_has_all(ctx, 11)
