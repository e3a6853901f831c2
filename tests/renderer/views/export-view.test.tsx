// @vitest-environment happy-dom
// The Export view against a fake engine: a task with no approved space is refused with the engine's reason
// and nothing to copy or download (issue 40 item 5); the new formats are offered, mcp-claude asks for the
// MCP server's name and passes it on; "export every approved space" is one action (issue 44 item 7).
// (The engine's side of these — the refusal, the formats' contents, export-all — is tested over the real
// service in tests/cli/space.test.ts and tests/engine/usecases/identity.test.ts.)
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type StudioApi } from '../../../shared/api';
import { fakeApi, renderStudio, TASK } from '../fake-api';

afterEach(cleanup);

const REFUSAL = `task "${TASK}" has no approved space, so there is nothing to export (an empty allow-list would block every tool)`;

describe('Export view', () => {
  it('refuses a task with no approved space: the reason, a way to approve, nothing to copy or download', async () => {
    await renderStudio(
      { view: 'export', task: TASK },
      fakeApi({
        renderExport: async () => {
          throw new ApiError('SPACE_NOT_APPROVED', REFUSAL);
        },
      }),
    );
    const refusal = await screen.findByTestId('export-refused');
    expect(refusal.textContent).toContain(REFUSAL);
    expect(within(refusal).getByRole('button', { name: 'Review & approve…' })).toBeTruthy();
    expect(screen.getByTestId<HTMLButtonElement>('save-export').disabled).toBe(true);
    expect(screen.getByTestId<HTMLButtonElement>('copy-export').disabled).toBe(true);
    expect(screen.getByTestId('export-text').textContent).toBe('');
    // A refusal is shown in place, not as an error notice.
    expect(screen.queryByRole('alert', { name: /Cannot export/ })).toBeNull();
  });

  it('offers the three-state formats, passes the MCP server name for mcp-claude, and exports every approved space in one action', async () => {
    const renderExport = vi.fn(async (input: Parameters<StudioApi['renderExport']>[0]) => ({
      format: input.format,
      text: JSON.stringify({ format: input.format, server: input.mcpServer ?? null }),
      filename: `fx.${input.format}.json`,
      mime: 'application/json',
      version: 1,
    }));
    const exportAllSpaces = vi.fn(async (input: Parameters<StudioApi['exportAllSpaces']>[0]) => ({
      format: input.format,
      files: [{ task: TASK, version: 1, filename: 'fx.json', text: '{}', mime: 'application/json', pinned: 2, deferred: 1, path: null }],
      skipped: [{ task: 'other', reason: 'no approved space' }],
    }));
    const api = fakeApi({ renderExport, exportAllSpaces });
    await renderStudio({ view: 'export', task: TASK }, api);
    for (const name of [/OpenAI Responses tools/, /Anthropic tools/, /OpenAI Chat tools/, /Claude Agent SDK/])
      expect(screen.getByRole('radio', { name })).toBeTruthy();

    fireEvent.click(screen.getByRole('radio', { name: /Claude Agent SDK/ }));
    fireEvent.change(await screen.findByTestId('mcp-server'), { target: { value: 'finance' } });
    await waitFor(() => expect(renderExport).toHaveBeenLastCalledWith({ task: TASK, format: 'mcp-claude', mcpServer: 'finance' }));
    expect(screen.getByTestId('export-text').textContent).toContain('"server":"finance"');

    // The browser's download (renderer/api/files.ts) needs object URLs, which happy-dom may lack.
    if (typeof URL.createObjectURL !== 'function') Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined });
    fireEvent.click(screen.getByTestId('export-all'));
    await waitFor(() => expect(exportAllSpaces).toHaveBeenCalledWith({ format: 'mcp-claude', mcpServer: 'finance' }));
    expect(await screen.findByText('1 approved space exported')).toBeTruthy();
    expect(screen.getByText('skipped (no approved space): other')).toBeTruthy();
  });
  it('is one Tab stop: the checked format is focusable, the arrows, Home and End move the choice and the focus (issue 40 item 13)', async () => {
    const renderExport = vi.fn(async (input: Parameters<StudioApi['renderExport']>[0]) => ({
      format: input.format,
      text: '{}',
      filename: `fx.${input.format}.json`,
      mime: 'application/json',
      version: 1,
    }));
    await renderStudio({ view: 'export', task: TASK }, fakeApi({ renderExport }));
    const radios = screen.getAllByRole('radio');
    const stops = () => radios.filter((r) => r.tabIndex === 0);
    expect(stops()).toHaveLength(1);
    const first = stops()[0]!;
    expect(first.getAttribute('aria-checked')).toBe('true');
    first.focus();
    fireEvent.keyDown(first, { key: 'ArrowDown' });
    const second = radios[radios.indexOf(first) + 1]!;
    await waitFor(() => expect(second.getAttribute('aria-checked')).toBe('true'));
    expect(document.activeElement).toBe(second);
    expect(stops()).toEqual([second]);
    fireEvent.keyDown(second, { key: 'End' });
    await waitFor(() => expect(radios[radios.length - 1]!.getAttribute('aria-checked')).toBe('true'));
    fireEvent.keyDown(radios[radios.length - 1]!, { key: 'ArrowRight' });
    await waitFor(() => expect(radios[0]!.getAttribute('aria-checked')).toBe('true'));
    expect(document.activeElement).toBe(radios[0]);
    await waitFor(() => expect(renderExport).toHaveBeenLastCalledWith(expect.objectContaining({ format: radios[0]!.getAttribute('data-format') })));
  });
});
