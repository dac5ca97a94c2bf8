-- policy: the maxmemory policy of the node that holds KEYS[1] (INFO memory), or '' if this user may not
-- run INFO. Reads only.
local info = redis.pcall('INFO', 'memory')
if type(info) ~= 'string' then
  return ''
end
return string.match(info, 'maxmemory_policy:(%S+)') or ''
