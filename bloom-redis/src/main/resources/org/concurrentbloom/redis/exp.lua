-- Prepended (after shape.lua) to the expiring filter's scripts (docs/REDIS.md, "Expiring filters on
-- Redis"). KEYS[1] is the filter's metadata hash NAME:{NAME:exp}:meta; the generation bit strings
-- NAME:{NAME:exp}:g<slot> and their add counters NAME:{NAME:exp}:c<slot> share its hash tag, so they live
-- in its Cluster slot and a script may touch them without naming them in KEYS. ARGV[1..8] is the shape
-- the client expects: format version, hash strategy, m (bits per generation), k, G, s (slot ms), W (ms),
-- clock ('server' or 'caller'); ARGV[9] the caller's now in ms, or '' to use the server's TIME.

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

-- Checks the metadata against ARGV[1..8]. Returns {origin, high} or nil and an error reply: absent
-- (deleted, evicted), another application's data, or another shape. Nothing is written before it.
local function exp_check_meta(meta)
  local t = key_type(meta)
  if t == 'none' then
    return nil, redis.error_reply('BLOOMMISSING no expiring filter metadata at ' .. meta)
  end
  if t ~= 'hash' then
    return nil, redis.error_reply('BLOOMFOREIGN ' .. meta .. ' holds a ' .. t
        .. ', not an expiring filter\'s metadata hash: it was not made by this library; delete it or choose another name')
  end
  local s = redis.call('HMGET', meta, 'version', 'kind', 'strategy', 'm', 'k', 'generations', 'span', 'window',
      'clock', 'origin', 'high')
  if not s[1] or s[2] ~= 'expiring' or not tonumber(s[10]) or not tonumber(s[11]) then
    return nil, redis.error_reply('BLOOMFOREIGN ' .. meta .. ' is a hash without the fields of this library\'s'
        .. ' expiring filter (kind=' .. tostring(s[2]) .. '): delete it or choose another name')
  end
  for i = 1, 8 do
    local stored = s[i + 1]
    if i == 1 then stored = s[1] end
    if stored ~= ARGV[i] then
      return nil, redis.error_reply('BLOOMSHAPE ' .. meta .. ' holds version=' .. tostring(s[1]) .. ' strategy='
          .. tostring(s[3]) .. ' m=' .. tostring(s[4]) .. ' k=' .. tostring(s[5]) .. ' generations=' .. tostring(s[6])
          .. ' span=' .. tostring(s[7]) .. ' window=' .. tostring(s[8]) .. ' clock=' .. tostring(s[9])
          .. ' but this client expects version=' .. ARGV[1] .. ' strategy=' .. ARGV[2] .. ' m=' .. ARGV[3] .. ' k='
          .. ARGV[4] .. ' generations=' .. ARGV[5] .. ' span=' .. ARGV[6] .. ' window=' .. ARGV[7] .. ' clock='
          .. ARGV[8])
    end
  end
  return {tonumber(s[10]), tonumber(s[11])}, nil
end

-- The state of one call: the slot adds go to (cur) and both clocks. cur never goes below the highest
-- slot an add has used ('high'), so a clock that steps back never hides generations it already wrote.
local function exp_context(meta)
  local stored, err = exp_check_meta(meta)
  if err then return nil, err end
  local server = exp_server_now()
  local now = server
  if ARGV[9] ~= '' then
    now = tonumber(ARGV[9])
  end
  local span = tonumber(ARGV[6])
  local cur = exp_slot_of(now - stored[1], span)
  if cur < stored[2] then
    cur = stored[2]
  end
  return {meta = meta, base = string.sub(meta, 1, -5), origin = stored[1], high = stored[2], now = now,
    server = server, span = span, g = tonumber(ARGV[5]), m = tonumber(ARGV[3]), cur = cur}, nil
end

local function exp_bits_key(ctx, slot)
  return ctx.base .. 'g' .. exp_int(slot)
end

local function exp_count_key(ctx, slot)
  return ctx.base .. 'c' .. exp_int(slot)
end

-- Whether a generation's bit string exists (false, nil if absent), or nil and an error reply if the key
-- holds anything but this library's string of exactly ceil(m/8) bytes.
local function exp_check_bits(ctx, key)
  local t = key_type(key)
  if t == 'none' then
    return false, nil
  end
  local want = math.floor((ctx.m + 7) / 8)
  if t ~= 'string' or redis.call('STRLEN', key) ~= want then
    return nil, redis.error_reply('BLOOMFOREIGN ' .. key .. ' holds a ' .. t .. ' that is not the ' .. want
        .. '-byte generation of the filter described by ' .. ctx.meta .. ': it was not made by this library')
  end
  return true, nil
end

-- The count of a generation's counter key (0 if absent), or nil and an error reply if it holds anything
-- but an integer string.
local function exp_read_count(key)
  local t = key_type(key)
  if t == 'none' then
    return 0, nil
  end
  local v = nil
  if t == 'string' then
    v = tonumber(redis.call('GET', key))
  end
  if not v then
    return nil, redis.error_reply('BLOOMFOREIGN ' .. key .. ' holds a ' .. t
        .. ' that is not an expiring filter\'s add counter: it was not made by this library')
  end
  return v, nil
end

-- Checks every generation still remembered (slots cur-G+1 .. cur). Returns nil or the first error reply.
local function exp_check_all(ctx)
  for slot = ctx.cur - ctx.g + 1, ctx.cur do
    local _, err = exp_check_bits(ctx, exp_bits_key(ctx, slot))
    if err then return err end
    local _, cerr = exp_read_count(exp_count_key(ctx, slot))
    if cerr then return cerr end
  end
  return nil
end

-- Makes Redis drop a key of slot cur when that slot's generation is forgotten: once slot cur+G begins,
-- origin + (cur+G)·s in the filter's time. PEXPIREAT counts in the server's time, so the deadline is
-- moved by the distance between the two clocks (zero for the server clock). GT only ever raises an
-- expiry (a clock that stepped back must not shorten one), but GT treats a key without expiry as
-- infinite, so a key this script has just made gets its first expiry without GT.
local function exp_expire(ctx, key)
  local forget = ctx.origin + (ctx.cur + ctx.g) * ctx.span
  local at = exp_int(ctx.server + (forget - ctx.now))
  if redis.call('PTTL', key) == -1 then
    redis.call('PEXPIREAT', key, at)
  else
    redis.call('PEXPIREAT', key, at, 'GT')
  end
end

-- 1 if the generation at key holds all the offsets ARGV[from..], else 0 (also for an absent key).
local function exp_has_all(key, present, from)
  if not present then
    return 0
  end
  return all_set(key, from)
end
