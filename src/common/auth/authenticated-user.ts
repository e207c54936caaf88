import type { UserRole } from './user-role.js';

/** Who is calling, as loaded fresh from the database for this request. */
export interface AuthenticatedUser {
  id: string;
  username: string;
  role: UserRole;
  departmentId: string;
  /** How the caller authenticated; `apiKeyId` is set for API keys. */
  via: 'jwt' | 'api_key';
  apiKeyId?: string;
}
