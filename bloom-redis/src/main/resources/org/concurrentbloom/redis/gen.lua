-- Prepended to the shared guard's scripts after shape.lua (docs/REDIS.md, "Shared guard"). The guard G keeps, under the
-- hash tag {G} (one slot, so one script may touch them all): the state hash {G}:state, whose fields
-- live and pending hold generation numbers (absent: none) and next the last number issued; the lock
-- {G}:lock; and generation N as the bit string {G}:gN:bits and the hash {G}:gN:meta, laid out like a
-- one-partition filter (shape.lua) plus the guard's fields keys, deletes, grow, shrink and watermark.
-- Scripts that read the state take it as KEYS[1]. Every key a script touches is one of its KEYS.

-- The live and pending generation numbers now, as strings; '0' for none.
local function state()
  local s = redis.call('HMGET', KEYS[1], 'live', 'pending')
  return s[1] or '0', s[2] or '0'
end

-- nil if a generation's metadata exists with this m and k and its bits exist; else an error reply.
-- The client computed its offsets for that m and k: they address the right bits only if these hold.
local function check_gen(bits, meta, m, k)
  local stored = redis.call('HMGET', meta, 'm', 'k')
  if not stored[1] then
    return redis.error_reply('BLOOMMISSING no generation metadata at ' .. meta)
  end
  if stored[1] ~= m or stored[2] ~= k then
    return redis.error_reply('BLOOMSHAPE ' .. meta .. ' holds m=' .. stored[1] .. ' k=' .. tostring(stored[2])
        .. ' but this client expects m=' .. m .. ' k=' .. k)
  end
  return check_bits(bits, meta, m)
end

-- nil if every ARGV[from..to] is an integer bit offset in [0, m); else an error reply.
local function check_offsets(from, to, m)
  local limit = tonumber(m)
  for i = from, to do
    local offset = tonumber(ARGV[i])
    if not offset or offset < 0 or offset >= limit then
      return redis.error_reply('BLOOMARG bit offset ' .. tostring(ARGV[i]) .. ' is outside [0, ' .. m .. ')')
    end
  end
  return nil
end
