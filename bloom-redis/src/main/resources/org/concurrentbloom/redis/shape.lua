-- Prepended to every other script (docs/REDIS.md, "Scripts"); the shared guard's scripts come with
-- gen.lua too, the expiring filter's with exp.lua. For the filter's scripts, KEYS[1] is a partition's
-- bit string and KEYS[2] its metadata hash, in one hash slot, and ARGV[1..6] the filter the client
-- opened: format version, hash strategy, m (bits in this partition), k, partition count, filter id.
--
-- Every script checks everything it reads and every command it will run before its first write, and
-- a failed check returns an error reply having written nothing: Redis does not undo a script's writes
-- when a later command fails, so a check after a write would be too late. Error codes (ScriptCalls):
-- BLOOMLOST (the filter the client opened is gone or was replaced), BLOOMSHAPE (another shape),
-- BLOOMFOREIGN (data this library did not write, or a field that is not what it wrote), BLOOMEXISTS,
-- BLOOMACL (the user may not run a command the script needs), BLOOMARG (a malformed call: a bug).

-- The type of a key ('none' if absent): TYPE answers with a status reply, a table in Lua.
local function key_type(key)
  return redis.call('TYPE', key)['ok']
end

-- 2^53 - 1: the largest integer a Lua number (a double) holds exactly. Counters stay below it, so an
-- increment can never overflow, in Lua or in Redis.
local MAX_EXACT = 9007199254740991

-- The value of an integer field written by this library: decimal digits only, no sign, space, point,
-- exponent or hex prefix (Lua's tonumber takes ' 7', '5.0', '1e3' and '0x10', and INCR/HINCRBY then
-- fail after earlier writes), and at most MAX_EXACT. nil for anything else, or an absent field.
local function strict_int(v)
  if type(v) ~= 'string' or #v > 16 or not string.match(v, '^%d+$') then
    return nil
  end
  local n = tonumber(v)
  if n > MAX_EXACT then
    return nil
  end
  return n
end

-- The error reply for a field that holds something this library never writes there.
local function bad_field(key, field, value, what)
  return redis.error_reply('BLOOMFOREIGN ' .. key .. ' field ' .. field .. ' holds "' .. tostring(value)
      .. '", not ' .. what .. ': it was not written by this library; nothing was written')
end

-- nil if the script's user may run the command with these arguments (ACL: the command and the key
-- pattern); else the error reply, before anything was written. Redis checks each command only when the
-- script runs it, which would be after the writes before it.
local function acl_check(...)
  if redis.acl_check_cmd(...) then
    return nil
  end
  local args = {...}
  return redis.error_reply('BLOOMACL this Redis user may not run ' .. table.concat(args, ' ', 1, math.min(#args, 2))
      .. ', which this call needs; nothing was written. Grant it (ACL SETUSER) or use another user')
end

-- nil if the bit string exists as this library made it: a string of exactly ceil(m/8) bytes (create,
-- clear and upload make it so, and adds only set offsets below m, so it never changes length). Else an
-- error reply: gone while its metadata remains (deleted or evicted), or replaced by another value,
-- which an add would write into and a download would return as if it were the filter.
local function check_bits(bits, meta, m)
  local t = key_type(bits)
  if t == 'none' then
    return redis.error_reply('BLOOMLOST ' .. bits .. ' is gone while ' .. meta .. ' remains (deleted or evicted):'
        .. ' the items added to it are lost; delete the filter and build it again from the source of truth')
  end
  if t ~= 'string' then
    return redis.error_reply('BLOOMFOREIGN ' .. bits .. ' holds a ' .. t
        .. ', not the bit string of the filter described by ' .. meta)
  end
  local want = math.floor((tonumber(m) + 7) / 8)
  local len = redis.call('STRLEN', bits)
  if len ~= want then
    return redis.error_reply('BLOOMFOREIGN ' .. bits .. ' holds ' .. len .. ' bytes, not the ' .. want
        .. ' of the m=' .. m .. ' filter described by ' .. meta .. ': it was replaced by other data')
  end
  return nil
end

-- nil if the metadata key is absent or a hash with this library's version field; else an error reply
-- naming the key and what it holds: another application's data, never to be merged into.
local function check_meta_type(meta)
  local t = key_type(meta)
  if t == 'none' then
    return nil
  end
  if t ~= 'hash' then
    return redis.error_reply('BLOOMFOREIGN ' .. meta .. ' holds a ' .. t
        .. ', not a filter\'s metadata hash: it was not made by this library; delete it or choose another name')
  end
  if not redis.call('HGET', meta, 'version') then
    return redis.error_reply('BLOOMFOREIGN ' .. meta .. ' is a hash without this library\'s fields'
        .. ' (no version): it was not made by this library; delete it or choose another name')
  end
  return nil
end

-- 1 if every bit at the offsets ARGV[from..] is set, else 0; stops at the first 0.
local function all_set(bits, from)
  for i = from, #ARGV do
    if redis.call('GETBIT', bits, ARGV[i]) == 0 then
      return 0
    end
  end
  return 1
end

-- nil if every ARGV[from..to] is an integer bit offset in [0, m); else an error reply. The client
-- computes the offsets, so this guards against a bug, not foreign data: tonumber is enough (and the
-- cheapest check, run k times per add).
local function check_offsets(from, to, m)
  local limit = tonumber(m)
  for i = from, to do
    local offset = tonumber(ARGV[i])
    if not offset or offset < 0 or offset >= limit or offset % 1 ~= 0 then
      return redis.error_reply('BLOOMARG bit offset ' .. tostring(ARGV[i]) .. ' is outside [0, ' .. m .. ')')
    end
  end
  return nil
end

-- The stored shape against the client's ARGV[1..5]: nil if equal, else the BLOOMSHAPE reply.
local function shape_error(meta, stored)
  if stored[1] ~= ARGV[1] or stored[2] ~= ARGV[2] or stored[3] ~= ARGV[3] or stored[4] ~= ARGV[4]
      or stored[5] ~= ARGV[5] then
    return redis.error_reply('BLOOMSHAPE ' .. meta .. ' holds version=' .. tostring(stored[1])
        .. ' strategy=' .. tostring(stored[2]) .. ' m=' .. tostring(stored[3]) .. ' k=' .. tostring(stored[4])
        .. ' partitions=' .. tostring(stored[5]) .. ' but this client expects version=' .. ARGV[1]
        .. ' strategy=' .. ARGV[2] .. ' m=' .. ARGV[3] .. ' k=' .. ARGV[4] .. ' partitions=' .. ARGV[5])
  end
  return nil
end

-- check_filter returns an error reply unless the partition is the one the client opened: its metadata
-- holds the client's filter id (ARGV[6]) and shape and its bit string is intact; with want_count, also
-- an integer count, returned on success (a query does not read it). Callers check it before writing
-- anything. The id is what makes a client notice that the filter it opened is gone: a filter deleted
-- (or evicted, or lost in a restart without persistence) and created again has a new id, so an old
-- client gets BLOOMLOST instead of answering "absent" from empty bits.
local function check_filter(bits, meta, want_count)
  local t = key_type(meta)
  if t == 'none' then
    return nil, redis.error_reply('BLOOMLOST no filter metadata at ' .. meta .. ': the filter this client opened'
        .. ' (id ' .. ARGV[6] .. ') is gone (deleted, evicted, or Redis restarted without its data); its items are'
        .. ' lost: build it again from the source of truth')
  end
  if t ~= 'hash' then
    return nil, redis.error_reply('BLOOMFOREIGN ' .. meta .. ' holds a ' .. t
        .. ', not a filter\'s metadata hash: it was not made by this library; delete it or choose another name')
  end
  local stored
  if want_count then
    stored = redis.call('HMGET', meta, 'version', 'strategy', 'm', 'k', 'partitions', 'id', 'count')
  else
    stored = redis.call('HMGET', meta, 'version', 'strategy', 'm', 'k', 'partitions', 'id')
  end
  if not stored[1] then
    return nil, redis.error_reply('BLOOMFOREIGN ' .. meta .. ' is a hash without this library\'s fields'
        .. ' (no version): it was not made by this library; delete it or choose another name')
  end
  if (stored[6] or '') ~= ARGV[6] then
    return nil, redis.error_reply('BLOOMLOST ' .. meta .. ' holds filter id ' .. tostring(stored[6])
        .. ', not the id ' .. ARGV[6] .. ' this client opened: the filter was deleted (or lost) and created again,'
        .. ' and the items added before are not in it; open it again, and rebuild it from the source of truth')
  end
  local err = shape_error(meta, stored)
  if err then return nil, err end
  local count = 0
  if want_count then
    count = strict_int(stored[7])
    if not count then
      return nil, bad_field(meta, 'count', stored[7], 'a decimal integer count in [0, 2^53)')
    end
  end
  err = check_bits(bits, meta, ARGV[3])
  if err then return nil, err end
  return count, nil
end
