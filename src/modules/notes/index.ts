import type { CoreModule } from '../module';
import { Comment, Note } from './note.entity';
import { CommentFieldsResolver, CompanyNotesResolver, DealNotesResolver, NoteFieldsResolver, NoteResolver, PersonNotesResolver } from './note.resolver';

/** Notes (v3 activities), their comments and conversations (notes on a deal). */
export const notesModule: CoreModule = { name: 'notes', entities: [Note, Comment], resolvers: [NoteResolver, NoteFieldsResolver, CommentFieldsResolver, DealNotesResolver, PersonNotesResolver, CompanyNotesResolver] };
