-- racetriage with Neovim's own LSP client, headless (NeovimClientTest runs it; Neovim 0.7+: start_client and
-- buf_attach_client, not vim.lsp.start). Everything it sees goes to RACETRIAGE_E2E_OUT as JSON, and it always quits:
-- an error is recorded, never left waiting at a prompt nobody sees.
--
-- Environment: RACETRIAGE_E2E_CMD (JSON array: the server command), RACETRIAGE_E2E_ROOT (workspace folder),
-- RACETRIAGE_E2E_FILES (JSON array of files to open), RACETRIAGE_E2E_FIX_FIELD (field key whose "Add volatile"
-- quick fix is applied), RACETRIAGE_E2E_OUT (result file), RACETRIAGE_E2E_WAIT_MS (per-step wait).

local function env(name)
  local value = os.getenv(name)
  if value == nil or value == '' then
    error('NeovimClientTest must set ' .. name)
  end
  return value
end

local result = { nvim = tostring(vim.version().major) .. '.' .. vim.version().minor .. '.' .. vim.version().patch,
  files = {}, steps = {} }

local function step(text)
  table.insert(result.steps, text)
end

-- what a diagnostic looks like to Neovim, plus the server's data (the field key) that quick fixes read back
local function summary(bufnr)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local lsp = (d.user_data or {}).lsp or {}
    table.insert(out, {
      lnum = d.lnum, col = d.col, end_col = d.end_col, severity = d.severity, source = d.source,
      code = d.code, message = d.message,
      fieldKey = type(lsp.data) == 'table' and lsp.data.fieldKey or vim.NIL,
      related = type(lsp.relatedInformation) == 'table' and #lsp.relatedInformation or 0,
    })
  end
  return out
end

local function has_field(bufnr, key)
  for _, d in ipairs(summary(bufnr)) do
    if d.fieldKey == key then
      return true
    end
  end
  return false
end

local server = { client = nil, exited = nil }

local function run()
  local wait_ms = tonumber(env('RACETRIAGE_E2E_WAIT_MS'))
  local root = env('RACETRIAGE_E2E_ROOT')
  local fix_field = env('RACETRIAGE_E2E_FIX_FIELD')
  local client_id = vim.lsp.start_client({
    name = 'racetriage',
    cmd = vim.fn.json_decode(env('RACETRIAGE_E2E_CMD')),
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = 'racy-shapes' } },
    -- no Maven call for the classpath in a test; no debounce so the steps are not paced by the timer
    init_options = { racetriage = { mavenClasspath = false, debounceMillis = 0, storePollMillis = 200 } },
    on_exit = function(code, signal)
      server.exited = { code = code, signal = signal }
    end,
  })
  if client_id == nil then
    error('vim.lsp.start_client returned nil for ' .. env('RACETRIAGE_E2E_CMD'))
  end
  local client = vim.lsp.get_client_by_id(client_id)
  server.client = client
  step('started client ' .. client_id)

  local buffers = {}
  for _, file in ipairs(vim.fn.json_decode(env('RACETRIAGE_E2E_FILES'))) do
    vim.cmd('edit ' .. vim.fn.fnameescape(file))
    local bufnr = vim.api.nvim_get_current_buf()
    vim.bo[bufnr].filetype = 'java'
    vim.lsp.buf_attach_client(bufnr, client_id)
    local seen = vim.wait(wait_ms, function()
      return #vim.diagnostic.get(bufnr) > 0
    end, 20)
    step((seen and 'diagnostics for ' or 'no diagnostics within the wait for ') .. file)
    result.files[file] = summary(bufnr)
    buffers[file] = bufnr
  end

  -- the quick fix round trip on the first file: codeAction -> WorkspaceEdit applied by Neovim -> didChange -> new
  -- diagnostics without the field
  local first = vim.fn.json_decode(env('RACETRIAGE_E2E_FILES'))[1]
  local bufnr = buffers[first]
  local target = nil
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local lsp = (d.user_data or {}).lsp or {}
    if type(lsp.data) == 'table' and lsp.data.fieldKey == fix_field then
      target = d
    end
  end
  if target == nil then
    step('no diagnostic for ' .. fix_field .. ': no quick fix tried')
    return
  end
  local range = { start = { line = target.lnum, character = target.col },
    ['end'] = { line = target.end_lnum, character = target.end_col } }
  local lsp_diagnostic = vim.tbl_extend('keep', { range = range, severity = target.severity,
    message = target.message, source = target.source, code = target.code }, target.user_data.lsp)
  local response, err = client.request_sync('textDocument/codeAction', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) }, range = range,
    context = { diagnostics = { lsp_diagnostic }, only = { 'quickfix' } },
  }, wait_ms, bufnr)
  if response == nil or response.err ~= nil then
    error('textDocument/codeAction failed: ' .. vim.inspect(err or response.err))
  end
  result.code_actions = {}
  local volatile = nil
  for _, action in ipairs(response.result or {}) do
    table.insert(result.code_actions, action.title)
    if action.edit ~= nil and action.title:find('^Add volatile') then
      volatile = action
    end
  end
  if volatile == nil then
    step('no "Add volatile" action among ' .. #result.code_actions)
  else
    vim.lsp.util.apply_workspace_edit(volatile.edit, client.offset_encoding)
    step('applied: ' .. volatile.title)
    result.fixed_lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
    local gone = vim.wait(wait_ms, function()
      return not has_field(bufnr, fix_field)
    end, 20)
    step(gone and 'diagnostic for the fixed field withdrawn' or 'diagnostic for the fixed field still there')
    result.after_fix = summary(bufnr)
  end
end

local ok, err = xpcall(run, debug.traceback)
if not ok then
  result.error = err
end
if server.client ~= nil then
  -- shutdown + exit the way an editor does when the user quits; the exit code says whether the server saw both
  vim.lsp.stop_client(server.client.id)
  local ended = vim.wait(tonumber(os.getenv('RACETRIAGE_E2E_WAIT_MS') or '10000'), function()
    return server.exited ~= nil
  end, 20)
  result.exit = ended and server.exited or 'the server did not exit after shutdown + exit'
end
local out = assert(io.open(os.getenv('RACETRIAGE_E2E_OUT'), 'w'))
out:write(vim.fn.json_encode(result))
out:close()
vim.cmd('qall!')
