import { ConfigurationError } from '../errors.js';
import type { AuthSettings } from '../model/auth/auth-selection.js';
import { resolveModel } from '../model/models.js';
import type { ModelProvider } from '../model/model-provider.js';
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

/**
 * The agent's model id: the `model` option, else gemini-cli's `model.name` setting, else the provider's default
 * model, else (Gemini) the SDK default. gemini-cli's aliases (`auto`, `pro`, `flash`, ...) resolve as it resolves them.
 *
 * @throws ConfigurationError when a `provider` is given without a model and has no default one.
 */
export function agentModel(
  options: { model?: string; provider?: ModelProvider },
  settingsModel: string | undefined,
): string {
  const named = options.model ?? settingsModel;
  if (named === undefined && options.provider !== undefined) {
    if (options.provider.defaultModel === undefined) {
      throw new ConfigurationError(
        `The model provider "${options.provider.id}" has no default model: pass model (e.g. model: 'llama3.2') ` +
          'or openAICompatible({ model }).',
      );
    }
    return options.provider.defaultModel;
  }
  return resolveModel(named);
}
