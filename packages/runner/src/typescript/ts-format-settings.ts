// Formatting as the file already is: its line ending and its indentation (tabs, or the smallest
// step of spaces its lines use), TypeScript's defaults for the rest.
import { ts } from 'ts-morph';

export function formatSettingsFor(text: string, eol: '\n' | '\r\n'): ts.FormatCodeSettings {
  const settings = ts.getDefaultFormatCodeSettings(eol);
  let tabs = 0;
  let spaced = 0;
  let step = 0;
  for (const match of text.matchAll(/^([ \t]+)\S/gm)) {
    const indent = match[1]!;
    if (indent.startsWith('\t')) tabs++;
    else {
      spaced++;
      if (indent.length >= 2 && (step === 0 || indent.length < step)) step = indent.length;
    }
  }
  if (tabs > spaced) return { ...settings, convertTabsToSpaces: false };
  const size = step === 2 || step === 4 || step === 8 ? step : 4;
  return { ...settings, indentSize: size, tabSize: size, convertTabsToSpaces: true };
}

export const USER_PREFERENCES: ts.UserPreferences = {
  quotePreference: 'auto',
  importModuleSpecifierPreference: 'relative',
  importModuleSpecifierEnding: 'auto',
  allowTextChangesInNewFiles: true,
  providePrefixAndSuffixTextForRename: true,
};
