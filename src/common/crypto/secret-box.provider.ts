import type { Provider } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { SecretBox } from './secret-box.js';

export const secretBoxProvider: Provider = {
  provide: SecretBox,
  inject: [AppConfig],
  useFactory: (config: AppConfig) =>
    new SecretBox(
      config.secrets.key.reveal(),
      config.secrets.previousKeys.map((k) => k.reveal()),
    ),
};
