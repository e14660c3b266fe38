import type { CoreModule } from '../module';
import { ConversationFieldsResolver, ConversationResolver } from './conversation.resolver';

/** Conversations (v3 §2.8): notes on a deal in their own shape; the Note entity is the notes module's. */
export const conversationsModule: CoreModule = { name: 'conversations', entities: [], resolvers: [ConversationResolver, ConversationFieldsResolver] };
