import { showToast } from './toast';

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

/** Copies and tells the user how it went (SPEC §8's 'Text copied'); `what` names the value when it fails. */
export async function copyWithToast(text: string, what: string): Promise<void> {
  if (await copyText(text)) showToast('Text copied', 'success');
  else showToast(`This browser did not let us copy. Select the ${what} and copy it yourself.`, 'error');
}
