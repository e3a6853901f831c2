// The Gateway view's empty state: no gateway has served the project yet, with the commands to start one.

export function NoGateway({ dir }: { dir: string }) {
  const q = /[^\w@%+=:,./-]/.test(dir) ? `'${dir.replace(/'/g, `'\\''`)}'` : dir;
  // The Empty component's box, wide enough for the two commands (they scroll rather than overflow).
  return (
    <div className="empty gateway-empty" data-testid="empty-state">
      <h2>No gateway has served this project yet</h2>
      <p>
        A gateway serves each task’s approved space to live agents and records their traffic into this project as new batches. Start one in a terminal; it
        appears here while it runs, with its requests per task, the tools it hides and the batch it records.
      </p>
      <pre className="code" data-testid="gateway-commands">
        {`# an OpenAI-compatible proxy (point the agent's base URL at http://127.0.0.1:8808/v1)\n`}
        {`lots gateway openai --project ${q} --upstream http://127.0.0.1:8080\n\n`}
        {`# an MCP server in front of another one, serving task T's space\n`}
        {`lots gateway mcp --project ${q} --task T \\\n    -- npx -y @modelcontextprotocol/server-filesystem /data`}
      </pre>
    </div>
  );
}
