-- guard-add: KEYS = {state, live bits, live meta, pending bits, pending meta}, leaving out the pair of
-- a generation the client expects to be absent. ARGV[1], ARGV[2] the live and pending generations the
-- client expects ('0': none); ARGV[3..5] the live m, k and id; ARGV[6..8] the pending m, k and id ('0'
-- when none); ARGV[9] the number L of live offsets, which follow from ARGV[10]; then the pending
-- offsets (none when the client skips the pending generation, a test hook).
-- In one atomic step, adds the key to the live and the pending generation: sets its bits, adds 1 to
-- count if a bit changed (as add.lua) and 1 to keys. Returns 1 if this add is the first to take the
-- live generation past its capacity n, else 0; or {live, pending}, having written nothing, when the
-- state is not the expected one. Every check comes before the first write.
local live, pending = state()
if live ~= ARGV[1] or pending ~= ARGV[2] then
  return {live, pending}
end
local nl = tonumber(ARGV[9])
local lb, lm, pb, pm, lc
local next_key = 2
if live ~= '0' then
  lb, lm = KEYS[next_key], KEYS[next_key + 1]
  next_key = next_key + 2
  local err
  lc, err = check_gen(lb, lm, ARGV[3], ARGV[4], ARGV[5])
  err = err or check_offsets(10, 9 + nl, ARGV[3]) or acl_check('SETBIT', lb, '0', '1')
      or acl_check('HINCRBY', lm, 'keys', '1') or acl_check('HSETNX', lm, 'grow', '1')
  if err then return err end
end
if pending ~= '0' then
  pb, pm = KEYS[next_key], KEYS[next_key + 1]
  local _, err = check_gen(pb, pm, ARGV[6], ARGV[7], ARGV[8])
  err = err or check_offsets(10 + nl, #ARGV, ARGV[6]) or acl_check('SETBIT', pb, '0', '1')
      or acl_check('HINCRBY', pm, 'keys', '1')
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

if pb and #ARGV > 9 + nl then
  add(pb, pm, 10 + nl, #ARGV)
end
if lb then
  local keys = add(lb, lm, 10, 9 + nl)
  if keys > lc[4] and redis.call('HSETNX', lm, 'grow', 1) == 1 then
    return 1
  end
end
return 0
