-- Runs after the README's Neovim snippet (loaded as init.lua) opened a Java file: waits for racetriage's
-- diagnostics on it, writes them to RACETRIAGE_E2E_OUT as JSON, stops the servers and quits (always: an error is
-- recorded, never left at a prompt nobody sees).
local out = os.getenv('RACETRIAGE_E2E_OUT')
local wait_ms = tonumber(os.getenv('RACETRIAGE_E2E_WAIT_MS') or '60000')
local result = { nvim = tostring(vim.version().major) .. '.' .. vim.version().minor .. '.' .. vim.version().patch,
  diagnostics = {}, clients = 0 }
local ok, err = pcall(function()
  local bufnr = vim.api.nvim_get_current_buf()
  vim.wait(wait_ms, function()
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if d.source == 'racetriage' then return true end
    end
    return false
  end, 100)
  result.clients = #vim.lsp.get_active_clients()
  result.filetype = vim.bo[bufnr].filetype
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local lsp = (d.user_data or {}).lsp or {}
    table.insert(result.diagnostics, { lnum = d.lnum, source = d.source, code = d.code,
      fieldKey = type(lsp.data) == 'table' and lsp.data.fieldKey or vim.NIL })
  end
end)
if not ok then result.error = tostring(err) end
local file = io.open(out, 'w')
file:write(vim.fn.json_encode(result))
file:close()
vim.lsp.stop_client(vim.lsp.get_active_clients(), true)
vim.cmd('qa!')
