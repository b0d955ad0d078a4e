// The PDFs Canopy writes (receipts, certificates, evidence packs), read back with pdf.js as a reader's viewer
// would: what the suites check is the text a reader sees.
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** Every page's text, spaces squeezed, the number of pages and the first page's size. */
export async function readPdf(bytes: Uint8Array): Promise<{ text: string; pages: number; width: number; height: number }> {
  // A copy: pdf.js takes over the buffer it is given, and a caller may still hash or parse the bytes.
  const task = getDocument({ data: bytes.slice(), useSystemFonts: false });
  const doc = await task.promise;
  const [, , width, height] = (await doc.getPage(1)).view;
  const parts: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    // pdfkit writes a line in runs, one per font slice (a name may take several): the runs of a line join
    // as they are, lines with a space.
    parts.push(content.items.map((it) => ('str' in it ? it.str + (it.hasEOL ? ' ' : '') : '')).join(''));
  }
  const pages = doc.numPages;
  await task.destroy();
  return { text: parts.join(' ').replace(/\s+/g, ' '), pages, width: width!, height: height! };
}

/** The text of every page of a PDF, spaces squeezed. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  return (await readPdf(bytes)).text;
}
