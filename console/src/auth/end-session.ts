import { useChat } from '../pages/chat/chat-store';
import { RunEventCache } from '../stream/run-event-cache';
import { useSession } from './session';

/** Signs out and drops what the console held for that user (their threads, the run it followed). */
export function endSession(): void {
  useChat().clear();
  RunEventCache.clearAll();
  useSession().signOut();
}
