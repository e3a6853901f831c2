// One titled block of the trace (request, step, answer), marked when the intervention removes it.

export function Block({ title, tone, removed, children }: { title: string; tone?: string; removed?: boolean; children: React.ReactNode }) {
  return (
    <div className={`block${tone ? ` ${tone}` : ''}${removed ? ' removed' : ''}`}>
      <div className="block-title">
        {title}
        {removed && (
          <span className="pill bad" style={{ marginLeft: 8 }}>
            removed by the intervention
          </span>
        )}
      </div>
      {children}
    </div>
  );
}
