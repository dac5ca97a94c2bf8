-- guard-query: KEYS = {state, live bits, live meta} ({state} alone when the client expects no live
-- generation). ARGV[1] the live generation the client expects ('0': none), ARGV[2] its m, ARGV[3] its
-- k, ARGV[4] its id, ARGV[5..] the key's bit offsets in it. Returns 1 (might exist; also while nothing is live), 0
-- (definitely absent), or {live, pending} when the live generation is not the expected one: the client
-- refreshes its view and asks again. Reading the state in the same script as the bits is what keeps a
-- client that has not heard of a new generation from answering out of the one it replaced.
local live, pending = state()
if live ~= ARGV[1] then
  return {live, pending}
end
if live == '0' then
  return 1
end
local _, err = check_gen(KEYS[2], KEYS[3], ARGV[2], ARGV[3], ARGV[4])
if err then return err end
return all_set(KEYS[2], 5)
