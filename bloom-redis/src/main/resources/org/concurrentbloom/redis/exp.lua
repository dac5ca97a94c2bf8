-- Prepended (after shape.lua) to the expiring filter's scripts (docs/REDIS.md, "Expiring filters on
-- Redis"). KEYS[1] is the filter's metadata hash NAME:{NAME:exp}:meta; the generation bit strings
-- NAME:{NAME:exp}:g<slot> share its hash tag, so they live in its Cluster slot and a script may touch
-- them without naming them in KEYS. ARGV[1..10] is the filter the client opened: layout version, hash
-- strategy, m (bits per generation), k, G, s (slot ms), W (ms), clock ('server', or 'manual' for the
-- tests), the filter id and its origin.
--
-- The metadata is the filter's directory: for each ring position p = slot mod G, s<p> is the slot whose
-- generation is stored there (absent: none) and c<p> its count of new adds. A generation the directory
-- lists must exist; one it does not list is not this filter's (a leftover of a filter that lost its
-- metadata), and is never read. Generation keys have no expiry: a volatile-* maxmemory policy cannot
-- evict them, and an allkeys-* policy that does is noticed (BLOOMLOST), never read as "absent". The
-- generation a new slot replaces in its ring position is out of the window by then, and the add that
-- starts the slot deletes it.

-- The layout version this file reads and writes; 1 had one key with an expiry per generation and one
-- per counter, and is upgraded in place by exp-open.
local EXP_VERSION = '2'

-- Numbers go into commands and key names as plain integer digits: Lua would print a large double in
-- exponent form, which Redis would refuse as an integer argument.
local function exp_int(x)
  return string.format('%.0f', x)
end

-- The server's clock in ms. Redis 7 replicates a script's effects, not the script, so TIME is allowed.
local function exp_server_now()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- floor(d / s), corrected by one where the double division rounded across an integer.
local function exp_slot_of(d, s)
  local i = math.floor(d / s)
  if i * s > d then
    i = i - 1
  elseif (i + 1) * s <= d then
    i = i + 1
  end
  return i
end

local EXP_FIELDS = {'version', 'kind', 'strategy', 'm', 'k', 'generations', 'span', 'window', 'clock', 'id', 'origin',
  'high', 'now'}

-- The metadata hash's fields in EXP_FIELDS order, or nil and an error reply: BLOOMLOST if it is gone
-- (the client opened the filter, so it existed: deleted, evicted, or a restart without the data), or
-- BLOOMFOREIGN if it is not this library's expiring filter.
local function exp_meta_fields(meta)
  local t = key_type(meta)
  if t == 'none' then
    return nil, redis.error_reply('BLOOMLOST no expiring filter metadata at ' .. meta .. ': the filter this client'
        .. ' opened (id ' .. ARGV[9] .. ') is gone (deleted, evicted, or Redis restarted without its data), and the'
        .. ' items added to it with it; build it again')
  end
  if t ~= 'hash' then
    return nil, redis.error_reply('BLOOMFOREIGN ' .. meta .. ' holds a ' .. t
        .. ', not an expiring filter\'s metadata hash: it was not made by this library; delete it or choose another name')
  end
  local s = redis.call('HMGET', meta, unpack(EXP_FIELDS))
  if not s[1] or s[2] ~= 'expiring' then
    return nil, redis.error_reply('BLOOMFOREIGN ' .. meta .. ' is a hash without the fields of this library\'s'
        .. ' expiring filter (kind=' .. tostring(s[2]) .. '): delete it or choose another name')
  end
  return s, nil
end

-- The BLOOMSHAPE reply if the stored shape s (EXP_FIELDS order) differs from ARGV[1..8], else nil.
-- With any_strategy, a stored strategy of 1 or 4 is accepted (build() takes the stored one).
local function exp_shape_error(meta, s, any_strategy)
  for i = 1, 8 do
    local stored = s[i + 1]
    if i == 1 then stored = s[1] end
    local ok = stored == ARGV[i]
    if i == 2 and any_strategy and (stored == '1' or stored == '4') then ok = true end
    if not ok then
      return redis.error_reply('BLOOMSHAPE ' .. meta .. ' holds version=' .. tostring(s[1]) .. ' strategy='
          .. tostring(s[3]) .. ' m=' .. tostring(s[4]) .. ' k=' .. tostring(s[5]) .. ' generations=' .. tostring(s[6])
          .. ' span=' .. tostring(s[7]) .. ' window=' .. tostring(s[8]) .. ' clock=' .. tostring(s[9])
          .. ' but this client expects version=' .. ARGV[1] .. ' strategy=' .. ARGV[2] .. ' m=' .. ARGV[3] .. ' k='
          .. ARGV[4] .. ' generations=' .. ARGV[5] .. ' span=' .. ARGV[6] .. ' window=' .. ARGV[7] .. ' clock='
          .. ARGV[8])
    end
  end
  return nil
end

-- The filter's clock: the server's TIME, or for a 'manual' filter (tests) the metadata field now.
local function exp_clock(meta, s)
  if ARGV[8] ~= 'manual' then
    return exp_server_now(), nil
  end
  local now = strict_int(s[13])
  if not now then
    return nil, bad_field(meta, 'now', s[13], 'a time in ms (the manual clock of a test filter)')
  end
  return now, nil
end

-- The state of one call, every field checked, or nil and an error reply. cur, the slot adds go to,
-- never goes below the highest slot an add has used ('high'), so a clock that steps back never hides
-- generations already written. slots[p] and counts[p] are ring position p's entry (p = 0 .. G-1).
local function exp_context(meta)
  local s, err = exp_meta_fields(meta)
  if err then return nil, err end
  if s[1] ~= ARGV[1] then
    return nil, exp_shape_error(meta, s, false)
  end
  if (s[10] or '') ~= ARGV[9] or (s[11] or '') ~= ARGV[10] then
    return nil, redis.error_reply('BLOOMLOST ' .. meta .. ' holds the expiring filter id=' .. tostring(s[10])
        .. ' origin=' .. tostring(s[11]) .. ', not id=' .. ARGV[9] .. ' origin=' .. ARGV[10] .. ' that this client'
        .. ' opened: the filter was lost (deleted, evicted, a restart without its data) and built again, and the'
        .. ' items added before are not in it; build it again')
  end
  err = exp_shape_error(meta, s, false)
  if err then return nil, err end
  local high = strict_int(s[12])
  if not high then
    return nil, bad_field(meta, 'high', s[12], 'a slot number')
  end
  local now
  now, err = exp_clock(meta, s)
  if err then return nil, err end
  local g = tonumber(ARGV[5])
  local fields = {}
  for p = 0, g - 1 do
    fields[#fields + 1] = 's' .. p
    fields[#fields + 1] = 'c' .. p
  end
  local ring = redis.call('HMGET', meta, unpack(fields))
  local slots, counts = {}, {}
  for p = 0, g - 1 do
    local sv, cv = ring[2 * p + 1], ring[2 * p + 2]
    if sv then
      slots[p] = strict_int(sv)
      if not slots[p] or slots[p] % g ~= p or slots[p] > high then
        return nil, bad_field(meta, 's' .. p, sv, 'a slot number of ring position ' .. p .. ' no later than high')
      end
      counts[p] = strict_int(cv or '')
      if not counts[p] then
        return nil, bad_field(meta, 'c' .. p, cv, 'a decimal integer count in [0, 2^53)')
      end
    end
  end
  local span = tonumber(ARGV[6])
  local origin = tonumber(ARGV[10])
  local cur = exp_slot_of(now - origin, span)
  if cur < high then
    cur = high
  end
  return {meta = meta, base = string.sub(meta, 1, -5), high = high, now = now, span = span, g = g,
    m = tonumber(ARGV[3]), cur = cur, slots = slots, counts = counts}, nil
end

local function exp_bits_key(ctx, slot)
  return ctx.base .. 'g' .. exp_int(slot)
end

-- Whether the directory lists slot's generation (it is this filter's, and must exist).
local function exp_listed(ctx, slot)
  return ctx.slots[slot % ctx.g] == slot
end

-- nil if key holds a generation as this library writes it (a string of exactly ceil(m/8) bytes) or
-- nothing; else the BLOOMFOREIGN reply. Returns whether it exists too.
local function exp_check_string(ctx, key)
  local t = key_type(key)
  if t == 'none' then
    return false, nil
  end
  local want = math.floor((ctx.m + 7) / 8)
  if t ~= 'string' or redis.call('STRLEN', key) ~= want then
    return true, redis.error_reply('BLOOMFOREIGN ' .. key .. ' holds a ' .. t .. ' that is not the ' .. want
        .. '-byte generation of the filter described by ' .. ctx.meta .. ': it was not made by this library')
  end
  return true, nil
end

-- Checks every generation of the window (slots cur-G+1 .. cur) that the directory lists: each must be
-- there, as this library wrote it. Returns nil or the first error reply.
local function exp_check_window(ctx)
  for slot = ctx.cur - ctx.g + 1, ctx.cur do
    if exp_listed(ctx, slot) then
      local key = exp_bits_key(ctx, slot)
      local present, err = exp_check_string(ctx, key)
      if err then return err end
      if not present then
        return redis.error_reply('BLOOMLOST ' .. key .. ', the generation of slot ' .. exp_int(slot) .. ', is gone'
            .. ' though ' .. ctx.meta .. ' records it as written (deleted, or evicted by a maxmemory policy): the'
            .. ' items added in that slot are lost; build the filter again')
      end
    end
  end
  return nil
end

-- 1 if a listed generation of the window holds all the offsets ARGV[from..], else 0.
local function exp_any_has_all(ctx, from)
  for slot = ctx.cur - ctx.g + 1, ctx.cur do
    if exp_listed(ctx, slot) and all_set(exp_bits_key(ctx, slot), from) == 1 then
      return 1
    end
  end
  return 0
end
