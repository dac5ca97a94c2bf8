-- guard-add: KEYS = {state, live bits, live meta, pending bits, pending meta}, leaving out the pair of
-- a generation the client expects to be absent. ARGV[1], ARGV[2] the live and pending generations the
-- client expects ('0': none); ARGV[3], ARGV[4] the live m and k; ARGV[5], ARGV[6] the pending m and k
-- ('0' when none); ARGV[7] the number L of live offsets, which follow from ARGV[8]; then the pending
-- offsets (none when the client skips the pending generation, a test hook).
-- In one atomic step, adds the key to the live and the pending generation: sets its bits, adds 1 to
-- count if a bit changed (as add.lua) and 1 to keys. Returns 1 if this add is the first to take the
-- live generation past its capacity n, else 0; or {live, pending}, having written nothing, when the
-- state is not the expected one. Every check comes before the first write.
local live, pending = state()
if live ~= ARGV[1] or pending ~= ARGV[2] then
  return {live, pending}
end
local nl = tonumber(ARGV[7])
local lb, lm, pb, pm
local next_key = 2
if live ~= '0' then
  lb, lm = KEYS[next_key], KEYS[next_key + 1]
  next_key = next_key + 2
  local err = check_gen(lb, lm, ARGV[3], ARGV[4]) or check_offsets(8, 7 + nl, ARGV[3])
  if err then return err end
end
if pending ~= '0' then
  pb, pm = KEYS[next_key], KEYS[next_key + 1]
  local err = check_gen(pb, pm, ARGV[5], ARGV[6]) or check_offsets(8 + nl, #ARGV, ARGV[5])
  if err then return err end
end

local function add(bits, meta, from, to)
  local changed = false
  for i = from, to do
    if redis.call('SETBIT', bits, ARGV[i], 1) == 0 then
      changed = true
    end
  end
  if changed then
    redis.call('HINCRBY', meta, 'count', 1)
  end
  return redis.call('HINCRBY', meta, 'keys', 1)
end

if pb and #ARGV > 7 + nl then
  add(pb, pm, 8 + nl, #ARGV)
end
if lb then
  local keys = add(lb, lm, 8, 7 + nl)
  if keys > tonumber(redis.call('HGET', lm, 'n')) and redis.call('HSETNX', lm, 'grow', 1) == 1 then
    return 1
  end
end
return 0
