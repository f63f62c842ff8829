import type { Doc, KeyRange, StoreHandle } from '../core/store/adapter.ts';

/**
 * AES-GCM encryption over any store's handle, through WebCrypto: documents are encrypted on
 * the way in and decrypted on the way out, as the IBM JSONStore study's encrypted collections
 * were. Only `_id` stays readable (it is the key); every other field is in the ciphertext, so a
 * query has to read and decrypt every document.
 */
export interface EncryptedDoc extends Doc {
  iv: string;
  data: string;
}

export async function createKey(): Promise<CryptoKey> {
  return crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function toBase64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const raw = atob(text);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

async function encryptDoc(key: CryptoKey, doc: Doc): Promise<EncryptedDoc> {
  const iv = crypto.getRandomValues(new Uint8Array(12)); // a fresh 96-bit IV per document, as GCM requires
  const { _id, ...body } = doc;
  const cipher = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv },
    key,
    encoder.encode(JSON.stringify(body)),
  );
  return { _id, iv: toBase64(iv), data: toBase64(new Uint8Array(cipher)) };
}

async function decryptDoc(key: CryptoKey, stored: Doc): Promise<Doc> {
  const { iv, data } = stored as EncryptedDoc;
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: fromBase64(iv) },
    key,
    fromBase64(data),
  );
  return { _id: stored._id, ...(JSON.parse(decoder.decode(plain)) as Record<string, unknown>) };
}

/** The handle with encryption on the way in and decryption on the way out. */
export function encryptedHandle(inner: StoreHandle, key: CryptoKey): StoreHandle {
  const decryptAll = (docs: readonly Doc[]) => Promise.all(docs.map((d) => decryptDoc(key, d)));
  return {
    async put(doc) {
      await inner.put(await encryptDoc(key, doc));
    },
    async get(id) {
      const stored = await inner.get(id);
      return stored && decryptDoc(key, stored);
    },
    count: () => inner.count(),
    ...(inner.bulkPut && {
      bulkPut: async (docs: readonly Doc[]) =>
        inner.bulkPut!(await Promise.all(docs.map((d) => encryptDoc(key, d)))),
    }),
    ...(inner.range && { range: async (range: KeyRange) => decryptAll(await inner.range!(range)) }),
    close: () => inner.close(),
    destroy: () => inner.destroy(),
  };
}
