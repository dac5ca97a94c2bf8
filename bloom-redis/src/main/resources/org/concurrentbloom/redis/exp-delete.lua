-- exp-delete: deletes the filter: every generation the directory lists, then the metadata. ARGV[9] the
-- filter id the caller opened, or '' to delete whatever filter the metadata describes (the builder's
-- delete, for a filter that cannot be opened). Returns the number of keys deleted (0 if there was no
-- metadata). Refuses a metadata key that is not this library's, and with an id, another filter's.
local meta = KEYS[1]
if key_type(meta) == 'none' then
  return 0
end
local s, err = exp_meta_fields(meta)
if err then return err end
if ARGV[9] ~= '' and (s[10] or '') ~= ARGV[9] then
  return redis.error_reply('BLOOMLOST ' .. meta .. ' holds the expiring filter id=' .. tostring(s[10]) .. ', not id='
      .. ARGV[9] .. ' that this client opened: it was built again by another instance; not deleted')
end
local g = strict_int(s[6])
if not g or g < 2 or g > 64 then
  g = 64
end
err = acl_check('DEL', meta)
if err then return err end
local base = string.sub(meta, 1, -5)
local deleted = 0
for p = 0, g - 1 do
  local slot = strict_int(redis.call('HGET', meta, 's' .. p) or '')
  if slot then
    deleted = deleted + redis.call('DEL', base .. 'g' .. exp_int(slot))
  end
end
return deleted + redis.call('DEL', meta)
