/** SPEC §8: copying warns and answers false when the clipboard is unsupported or the copy fails. */
export async function copyText(text: string): Promise<boolean> {
  if (!navigator.clipboard?.writeText) {
    console.warn('Copying is not supported in this browser.');
    return false;
  }
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (error) {
    console.warn('Copying to the clipboard failed.', error);
    return false;
  }
}
