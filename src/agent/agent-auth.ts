import type { AuthSettings } from '../model/auth/auth-selection.js';
import type { LoadedSettings } from '../settings/load-settings.js';

/**
 * The auth keys of gemini-cli's settings (`security.auth.selectedType` / `enforcedType`) for the model layer,
 * with the file the selected type came from (for error messages): the last loaded file that sets it, as the
 * merge lets later files win.
 */
export function authSettingsOf(settings: LoadedSettings): AuthSettings {
  const auth = settings.merged.security?.auth;
  const out: AuthSettings = {};
  if (auth?.selectedType !== undefined) out.selectedType = auth.selectedType;
  if (auth?.enforcedType !== undefined) out.enforcedType = auth.enforcedType;
  const key = out.selectedType !== undefined ? 'selectedType' : 'enforcedType';
  const file = [...settings.files]
    .reverse()
    .find((f) => !f.skipped && f.settings.security?.auth?.[key] !== undefined);
  if (file) out.source = file.path;
  return out;
}
