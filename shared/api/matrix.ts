// Typed arrays as base64 text: a 10,000 × 120 heatmap is 4.8 MB of float32, which JSON numbers would
// triple in size and take seconds to parse. btoa/atob exist in browsers and in Node ≥ 16.

const CHUNK = 0x8000;

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode.apply(null, bytes.subarray(i, i + CHUNK) as unknown as number[]);
  }
  return btoa(binary);
}

export function base64ToBytes(text: string): Uint8Array {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

export function encodeFloat32(values: Float32Array): string {
  return bytesToBase64(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
}

export function decodeFloat32(text: string): Float32Array {
  const bytes = base64ToBytes(text);
  // A fresh, aligned buffer: the decoded bytes start at offset 0.
  return new Float32Array(bytes.buffer, 0, bytes.byteLength / 4);
}

export function encodeUint8(values: Uint8Array): string {
  return bytesToBase64(values);
}

export function decodeUint8(text: string): Uint8Array {
  return base64ToBytes(text);
}
