-- rampart.paths: the extension of a path's last segment, as the hotlink and signed-URL checks read it.
local paths = require "rampart.paths"

local cases = {
  { "/a/b.PNG", "png" },
  { "/gallery/photo.jpg", "jpg" },
  { "/x.tar.gz", "gz" },
  { "/.htaccess", "htaccess" },
  { "a.b", "b" },
  -- No extension: a dot in a directory, a trailing dot, none at all, a trailing slash, nothing.
  { "/a.b/c", nil },
  { "/a/b.", nil },
  { "/a", nil },
  { "/a.b/", nil },
  { ".", nil },
  { "", nil },
  { "/", nil },
}
for _, case in ipairs(cases) do
  local got = paths.extension(case[1])
  assert(got == case[2], ("extension(%q): %s, expected %s"):format(case[1], tostring(got), tostring(case[2])))
end
