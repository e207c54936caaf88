import { Injectable } from '@nestjs/common';
import { McpErrors } from '../mcp.errors.js';
import { McpServersRepository } from './mcp-servers.repository.js';

/** How long one process trusts what it read of a server's switches. */
export const SWITCHES_TTL_MS = 2_000;

interface Switches {
  enabled: boolean;
  disabledTools: ReadonlySet<string>;
}

interface Cached {
  at: number;
  read: Promise<Switches | null>;
}

/**
 * The server and tool switches as a running call sees them: checked before every MCP call, so a tool
 * or server switched off stops runs already under way. Each process keeps what it read for at most
 * `SWITCHES_TTL_MS` (one read per server per window, shared by concurrent calls); the process that
 * changes a switch forgets its copy at once, and every other process sees the change when its copy
 * expires, within `SWITCHES_TTL_MS`, with no message between processes.
 */
@Injectable()
export class McpToolSwitches {
  private readonly cache = new Map<string, Cached>();

  constructor(private readonly repository: McpServersRepository) {}

  /** Throws `mcp.tool_disabled` when the server is gone or switched off, or the tool is switched off. */
  async assertEnabled(slug: string, tool: string): Promise<void> {
    const switches = await this.read(slug);
    if (switches === null || !switches.enabled || switches.disabledTools.has(tool)) {
      throw McpErrors.toolDisabled(slug, tool);
    }
  }

  /** Called by the writes of this process (status, tool switches, edits, deletion). */
  forget(slug: string): void {
    this.cache.delete(slug);
  }

  private read(slug: string): Promise<Switches | null> {
    const cached = this.cache.get(slug);
    if (cached !== undefined && Date.now() - cached.at < SWITCHES_TTL_MS) return cached.read;
    const read = this.repository
      .findSwitches(slug)
      .then((row) =>
        row === null ? null : { enabled: row.enabled, disabledTools: new Set(row.disabledTools) },
      );
    const entry = { at: Date.now(), read };
    this.cache.set(slug, entry);
    // A failed read is not kept: the next call reads again.
    read.catch(() => {
      if (this.cache.get(slug) === entry) this.cache.delete(slug);
    });
    return read;
  }
}
