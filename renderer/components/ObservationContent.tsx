// One observation's content in the Trace view: a long output is cut to its start with a "show all" (a
// 2 MB tool result must not be put into the page at once), and a base64 image (an image-generation
// tool's result, bare or inside JSON) is shown as the image, its characters left out of the text.
import { useState } from 'react';

/** Characters shown before "show all". */
export const OBSERVATION_PREVIEW_CHARS = 2000;

const IMAGE = /(data:image\/(png|jpeg|gif|webp);base64,)?((?:iVBORw0KGgo|\/9j\/|R0lGOD|UklGR)[A-Za-z0-9+/]{200,}={0,2})/;
const MIME: Record<string, string> = { iVBORw0KGgo: 'png', '/9j/': 'jpeg', R0lGOD: 'gif', UklGR: 'webp' };

/** The first base64 image in a text (its data URL) and the text with it replaced by a marker. */
export function splitImage(text: string): { src?: string; text: string } {
  const m = IMAGE.exec(text);
  if (!m) return { text };
  const data = m[3]!;
  const kind = m[2] ?? Object.entries(MIME).find(([head]) => data.startsWith(head))![1];
  const kb = Math.round((data.length * 3) / 4 / 1024);
  return {
    src: `data:image/${kind};base64,${data}`,
    text: text.slice(0, m.index) + `[${kind} image, ${kb} KB: shown above]` + text.slice(m.index + m[0].length),
  };
}

export function ObservationContent({ content }: { content: string }) {
  const [all, setAll] = useState(false);
  const { src, text } = splitImage(content);
  const long = text.length > OBSERVATION_PREVIEW_CHARS;
  return (
    <>
      {src && (
        <img
          src={src}
          alt="image returned by the tool"
          data-testid="observation-image"
          style={{ maxWidth: '100%', maxHeight: 360, display: 'block', marginBottom: 6 }}
        />
      )}
      <pre className="msg-text">{long && !all ? `${text.slice(0, OBSERVATION_PREVIEW_CHARS)}…` : text}</pre>
      {long && (
        <button type="button" className="btn small" onClick={() => setAll(!all)} data-testid="observation-toggle">
          {all ? 'show less' : `show all (${text.length.toLocaleString('en-US')} characters)`}
        </button>
      )}
    </>
  );
}
