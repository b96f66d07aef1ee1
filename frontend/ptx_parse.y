/* ptx_parse.y: the pure PTX grammar.  Every action is one call to an AST builder
 * (frontend/ast.c); meaning is given to the tree by the lowering pass (lower.c). */
%code top {
#include "frontend/internal.h"
}
%code requires {
#include "frontend/internal.h"
}
%code provides {
int fe_yylex(FE_YYSTYPE *lval, fe_span_t *lloc, void *scanner);
}
%code {
#include "ptx_lex.h"
static void fe_yyerror(YYLTYPE *loc, void *scanner, fe_ctx_t *ctx, const char *msg);
#define YYLLOC_DEFAULT(cur, rhs, n)                                        \
    do {                                                                   \
        if (n) { (cur).begin = YYRHSLOC(rhs, 1).begin; (cur).end = YYRHSLOC(rhs, n).end; } \
        else   { (cur).begin = (cur).end = YYRHSLOC(rhs, 0).end; }         \
    } while (0)
#define SP(x) (x)
}

%define api.pure full
%define api.prefix {fe_yy}
%define parse.error verbose
%locations
%define api.location.type {fe_span_t}
%expect 0
%lex-param   {void *scanner}
%parse-param {void *scanner} {fe_ctx_t *ctx}

%union {
    fe_tok_t   tok;
    fe_node_t *node;
}

%token <tok> NAME "identifier" INT "integer" F32 "f32 constant" F64 "f64 constant"
%token <tok> FLTDEC "decimal constant" STRING "string" DOT "directive" PERF "performance directive"
%token <tok> T_VERSION ".version" T_TARGET ".target" T_ADDRSIZE ".address_size" T_FILE ".file"
%token <tok> T_LOC ".loc" T_SECTION ".section" T_ENTRY ".entry" T_FUNC ".func"
%token <tok> T_PROTO ".callprototype" T_BRT ".branchtargets" T_CALLT ".calltargets"
%token <tok> T_PRAGMA ".pragma" T_ALIAS ".alias"
%token SHL "<<" SHR ">>" LE "<=" GE ">=" EQ "==" NE "!=" ANDAND "&&" OROR "||"

%type <node> items item names words word wordsopt dtors dtor dims dim initopt initval initlist
%type <node> rets params paramlist param perfs perf ints body stmts stmt guard
%type <node> opnds opnd aitems aitem velems velem cexpr fnum strings calllist callelems callelem
%type <node> locx fileextra

%right '?' ':'
%left OROR
%left ANDAND
%left '|'
%left '^'
%left '&'
%left EQ NE
%left '<' '>' LE GE
%left SHL SHR
%left '+' '-'
%left '*' '/' '%'
%precedence UNARY

%%

input
    : items                          { ctx->root = $1; }
    ;

items
    : %empty                         { $$ = fe_ast_new(ctx, N_MODULE, @$); }
    | items item                     { $$ = fe_ast_add($1, $2); }
    ;

item
    : T_VERSION FLTDEC               { $$ = fe_ast_tok(ctx, N_VERSION, @$, &$2); }
    | T_VERSION INT                  { $$ = fe_ast_tok(ctx, N_VERSION, @$, &$2); }
    | T_TARGET names                 { $$ = $2; $$->kind = N_TARGET; $$->span = @$; }
    | T_ADDRSIZE INT                 { $$ = fe_ast_int(ctx, @$, $2.u, 0); $$->kind = N_ADDRSIZE; }
    | T_FILE INT STRING fileextra    { $$ = fe_ast_add(fe_ast_add(fe_ast_int(ctx, @$, $2.u, 0), fe_ast_tok(ctx, N_STR, @3, &$3)), $4); $$->kind = N_FILE; }
    | T_SECTION                      { $$ = fe_ast_new(ctx, N_SECTION, @$); }
    | T_PRAGMA strings ';'           { $$ = $2; $$->kind = N_PRAGMA; }
    | T_ALIAS NAME ',' NAME ';'      { $$ = fe_ast_add(fe_ast_add(fe_ast_new(ctx, N_ALIAS, @$), fe_ast_tok(ctx, N_NAME, @2, &$2)), fe_ast_tok(ctx, N_NAME, @4, &$4)); }
    | words dtors ';'                { $$ = fe_ast_add(fe_ast_list1(ctx, N_DECL, @$, $1), $2); }
    | wordsopt T_ENTRY NAME params perfs body
                                     { $$ = fe_ast_func(ctx, @$, $1, 1, NULL, &$3, @3, $4, $5, $6); }
    | wordsopt T_ENTRY NAME params perfs ';'
                                     { $$ = fe_ast_func(ctx, @$, $1, 1, NULL, &$3, @3, $4, $5, NULL); }
    | wordsopt T_FUNC rets NAME params perfs body
                                     { $$ = fe_ast_func(ctx, @$, $1, 0, $3, &$4, @4, $5, $6, $7); }
    | wordsopt T_FUNC rets NAME params perfs ';'
                                     { $$ = fe_ast_func(ctx, @$, $1, 0, $3, &$4, @4, $5, $6, NULL); }
    | wordsopt T_FUNC rets NAME params perfs
                                     /* a prototype without ';', as nvcc of CUDA 2 and 3 wrote them;
                                        ptxas 13 takes it */
                                     { $$ = fe_ast_func(ctx, @$, $1, 0, $3, &$4, @4, $5, $6, NULL); }
    | error ';'                      { $$ = fe_ast_new(ctx, N_SECTION, @$); }
    | error '}'                      { $$ = fe_ast_new(ctx, N_SECTION, @$); }
    ;

fileextra
    : %empty                         { $$ = NULL; }
    | fileextra ',' INT              { $$ = fe_ast_append(ctx, N_VEC, @$, $1, fe_ast_int(ctx, @3, $3.u, 0)); }
    ;

names
    : NAME                           { $$ = fe_ast_list1(ctx, N_VEC, @$, fe_ast_tok(ctx, N_NAME, @1, &$1)); }
    | names ',' NAME                 { $$ = fe_ast_add($1, fe_ast_tok(ctx, N_NAME, @3, &$3)); }
    ;

strings
    : STRING                         { $$ = fe_ast_list1(ctx, N_VEC, @$, fe_ast_tok(ctx, N_STR, @1, &$1)); }
    | strings ',' STRING             { $$ = fe_ast_add($1, fe_ast_tok(ctx, N_STR, @3, &$3)); }
    ;

/*----- declarations ------------------------------------------------------*/

wordsopt
    : %empty                         { $$ = fe_ast_new(ctx, N_WORDS, @$); }
    | words                          { $$ = $1; }
    ;

words
    : word                           { $$ = fe_ast_list1(ctx, N_WORDS, @$, $1); }
    | words word                     { $$ = fe_ast_add($1, $2); }
    ;

word
    : DOT                            { $$ = fe_ast_tok(ctx, N_WORD, @$, &$1); }
    | DOT INT                        { $$ = fe_ast_add(fe_ast_tok(ctx, N_WORD, @$, &$1), fe_ast_int(ctx, @2, $2.u, 0)); }
    | DOT '(' words ')'              { $$ = fe_ast_add(fe_ast_tok(ctx, N_WORD, @$, &$1), $3); }
    ;

dtors
    : dtor                           { $$ = fe_ast_list1(ctx, N_VEC, @$, $1); }
    | dtors ',' dtor                 { $$ = fe_ast_add($1, $3); }
    ;

dtor
    : NAME dims initopt              { $$ = fe_ast_dtor(ctx, @$, &$1, NULL, $2, $3); }
    | NAME '<' INT '>'               { $$ = fe_ast_dtor(ctx, @$, &$1, fe_ast_int(ctx, @3, $3.u, 0), NULL, NULL); }
    ;

dims
    : %empty                         { $$ = NULL; }
    | dims dim                       { $$ = fe_ast_append(ctx, N_VEC, @$, $1, $2); }
    ;

dim
    : '[' ']'                        { $$ = fe_ast_new(ctx, N_DIM, @$); $$->sub = 1; }
    | '[' cexpr ']'                  { $$ = $2; $$->kind = N_DIM; $$->span = @$; }
    ;

initopt
    : %empty                         { $$ = NULL; }
    | '=' initval                    { $$ = $2; }
    ;

initval
    : cexpr                          { $$ = $1; }
    | fnum                           { $$ = $1; }
    | NAME                           { $$ = fe_ast_tok(ctx, N_NAME, @$, &$1); }
    | NAME '+' cexpr                 { $$ = fe_ast_symoff(ctx, @$, N_SYMOFF, &$1, 1, $3); }
    | NAME '(' NAME ')'              { $$ = fe_ast_symoff(ctx, @$, N_GENERIC, &$3, 0, fe_ast_tok(ctx, N_NAME, @1, &$1)); }
    | NAME '(' NAME ')' '+' cexpr    { $$ = fe_ast_symoff(ctx, @$, N_GENERIC, &$3, 1, fe_ast_add(fe_ast_tok(ctx, N_NAME, @1, &$1), $6)); }
    | '{' initlist '}'               { $$ = $2; $$->span = @$; }
    | NAME '=' NAME                  { $$ = fe_ast_add(fe_ast_tok(ctx, N_FIELD, @$, &$1), fe_ast_tok(ctx, N_NAME, @3, &$3)); }
    | NAME '=' cexpr                 { $$ = fe_ast_add(fe_ast_tok(ctx, N_FIELD, @$, &$1), $3); }
    ;

initlist
    : initval                        { $$ = fe_ast_list1(ctx, N_INITLIST, @$, $1); }
    | initlist ',' initval           { $$ = fe_ast_add($1, $3); }
    ;

/*----- functions ---------------------------------------------------------*/

rets
    : %empty                         { $$ = fe_ast_new(ctx, N_RETS, @$); }
    | '(' paramlist ')'              { $$ = $2; $$->kind = N_RETS; $$->sub = 1; $$->span = @$; }
    ;

params
    : %empty                         { $$ = fe_ast_new(ctx, N_PARAMS, @$); }
    | '(' paramlist ')'              { $$ = $2; $$->sub = 1; $$->span = @$; }
    ;

paramlist
    : %empty                         { $$ = fe_ast_new(ctx, N_PARAMS, @$); }
    | param                          { $$ = fe_ast_list1(ctx, N_PARAMS, @$, $1); }
    | paramlist ',' param            { $$ = fe_ast_add($1, $3); }
    ;

param
    : words NAME dims                { $$ = fe_ast_add(fe_ast_list1(ctx, N_PARAM, @$, $1), fe_ast_dtor(ctx, @2, &$2, NULL, $3, NULL)); }
    ;

perfs
    : %empty                         { $$ = fe_ast_new(ctx, N_PERFS, @$); }
    | perfs perf                     { $$ = fe_ast_add($1, $2); }
    ;

perf
    : PERF                           { $$ = fe_ast_tok(ctx, N_PERF, @$, &$1); }
    | PERF ints                      { $$ = fe_ast_add(fe_ast_tok(ctx, N_PERF, @$, &$1), $2); }
    ;

ints
    : INT                            { $$ = fe_ast_list1(ctx, N_VEC, @$, fe_ast_int(ctx, @1, $1.u, 0)); }
    | ints ',' INT                   { $$ = fe_ast_add($1, fe_ast_int(ctx, @3, $3.u, 0)); }
    ;

body
    : '{' stmts '}'                  { $$ = $2; $$->span = @$; }
    ;

stmts
    : %empty                         { $$ = fe_ast_new(ctx, N_BODY, @$); }
    | stmts stmt                     { $$ = fe_ast_add($1, $2); }
    ;

/*----- statements --------------------------------------------------------*/

stmt
    : words dtors ';'                { $$ = fe_ast_add(fe_ast_list1(ctx, N_DECL, @$, $1), $2); }
    | NAME ':'                       { $$ = fe_ast_tok(ctx, N_LABEL, @1, &$1); }
    | NAME ':' T_PROTO rets NAME params perfs ';'
                                     { $$ = fe_ast_proto(ctx, @$, &$1, $4, &$5, @5, $6, $7); }
    | NAME ':' T_BRT names ';'       { $$ = fe_ast_add(fe_ast_tok(ctx, N_BRT, @$, &$1), $4); }
    | NAME ':' T_CALLT names ';'     { $$ = fe_ast_add(fe_ast_tok(ctx, N_BRT, @$, &$1), $4); $$->sub = 1; }
    | guard NAME ';'                 { $$ = fe_ast_instr(ctx, @$, $1, &$2, NULL); }
    | guard NAME opnds ';'           { $$ = fe_ast_instr(ctx, @$, $1, &$2, $3); }
    | NAME ';'                       { $$ = fe_ast_instr(ctx, @$, NULL, &$1, NULL); }
    | NAME opnds ';'                 { $$ = fe_ast_instr(ctx, @$, NULL, &$1, $2); }
    | body                           { $$ = $1; }
    | T_LOC INT INT INT locx         { $$ = fe_ast_loc(ctx, @$, fe_ast_int(ctx, @2, $2.u, 0), fe_ast_int(ctx, @3, $3.u, 0), fe_ast_int(ctx, @4, $4.u, 0), @5); }
    | T_PRAGMA strings ';'           { $$ = $2; $$->kind = N_PRAGMA; }
    | error ';'                      { $$ = fe_ast_new(ctx, N_SECTION, @$); }
    ;

locx
    : %empty                         { $$ = NULL; }
    | locx ',' NAME NAME             { $$ = NULL; }
    | locx ',' NAME INT INT INT      { $$ = NULL; }
    ;

guard
    : '@' NAME                       { $$ = fe_ast_tok(ctx, N_GUARD, @$, &$2); }
    | '@' '!' NAME                   { $$ = fe_ast_tok(ctx, N_GUARD, @$, &$3); $$->sub = 1; }
    ;

/*----- operands ----------------------------------------------------------*/

opnds
    : opnd                           { $$ = fe_ast_list1(ctx, N_VEC, @$, $1); }
    | opnds ',' opnd                 { $$ = fe_ast_add($1, $3); }
    ;

opnd
    : NAME                           { $$ = fe_ast_tok(ctx, N_NAME, @$, &$1); }
    | NAME '|' NAME                  { $$ = fe_ast_add(fe_ast_add(fe_ast_new(ctx, N_DUAL, @$), fe_ast_tok(ctx, N_NAME, @1, &$1)), fe_ast_tok(ctx, N_NAME, @3, &$3)); }
    | NAME '+' cexpr                 { $$ = fe_ast_symoff(ctx, @$, N_SYMOFF, &$1, 1, $3); }
    | '!' NAME                       { $$ = fe_ast_tok(ctx, N_NOT, @$, &$2); }
    | '-' NAME                       { $$ = fe_ast_tok(ctx, N_MINUS, @$, &$2); }
    | cexpr                          { $$ = $1; }
    | fnum                           { $$ = $1; }
    | '[' aitems ']'                 { $$ = $2; $$->kind = N_ADDR; $$->span = @$; }
    | '{' velems '}'                 { $$ = $2; $$->span = @$; }
    | '{' velems '}' '|' NAME        { $$ = fe_ast_add(fe_ast_add(fe_ast_new(ctx, N_DUAL, @$), $2), fe_ast_tok(ctx, N_NAME, @5, &$5)); }
    | calllist                       { $$ = $1; }
    ;

/* A call's argument or return list: registers, .param variables and constants.  A
 * single constant expression in parentheses is a cexpr marked FE_PAREN; lowering turns
 * it into a list of one where a list is expected. */
calllist
    : '(' ')'                        { $$ = fe_ast_new(ctx, N_LIST, @$); }
    | '(' NAME ')'                   { $$ = fe_ast_list1(ctx, N_LIST, @$, fe_ast_tok(ctx, N_NAME, @2, &$2)); }
    | '(' fnum ')'                   { $$ = fe_ast_list1(ctx, N_LIST, @$, $2); }
    | '(' callelems ')'              { $$ = $2; $$->span = @$; }
    ;

callelems
    : callelem ',' callelem          { $$ = fe_ast_add(fe_ast_list1(ctx, N_LIST, @$, $1), $3); }
    | callelems ',' callelem         { $$ = fe_ast_add($1, $3); }
    ;

callelem
    : NAME                           { $$ = fe_ast_tok(ctx, N_NAME, @$, &$1); }
    | cexpr                          { $$ = $1; }
    | fnum                           { $$ = $1; }
    ;

aitems
    : aitem                          { $$ = fe_ast_list1(ctx, N_ADDR, @$, $1); }
    | aitems ',' aitem               { $$ = fe_ast_add($1, $3); }
    ;

aitem
    : NAME                           { $$ = fe_ast_tok(ctx, N_NAME, @$, &$1); }
    | NAME '+' cexpr                 { $$ = fe_ast_symoff(ctx, @$, N_SYMOFF, &$1, 1, $3); }
    | NAME '-' cexpr                 { $$ = fe_ast_symoff(ctx, @$, N_SYMOFF, &$1, -1, $3); }
    | cexpr                          { $$ = $1; }
    | '{' velems '}'                 { $$ = $2; $$->span = @$; }
    ;

velems
    : velem                          { $$ = fe_ast_list1(ctx, N_VEC, @$, $1); }
    | velems ',' velem               { $$ = fe_ast_add($1, $3); }
    ;

velem
    : NAME                           { $$ = fe_ast_tok(ctx, N_NAME, @$, &$1); }
    | cexpr                          { $$ = $1; }
    | fnum                           { $$ = $1; }
    ;

fnum
    : F32                            { $$ = fe_ast_tok(ctx, N_F32, @$, &$1); $$->u = $1.u; }
    | F64                            { $$ = fe_ast_tok(ctx, N_F64, @$, &$1); $$->u = $1.u; }
    | FLTDEC                         { $$ = fe_ast_decimal(ctx, @$, &$1); }
    | '-' fnum                       { $$ = fe_ast_fneg(ctx, @$, $2); }
    ;

/* Integer constant expressions, folded as they are built. */
cexpr
    : INT                            { $$ = fe_ast_int(ctx, @$, $1.u, $1.uflag); }
    | '(' cexpr ')'                  { $$ = $2; $$->span = @$; $$->sub |= FE_PAREN; }
    | '-' cexpr %prec UNARY          { $$ = fe_ast_unop(ctx, @$, '-', $2); }
    | '+' cexpr %prec UNARY          { $$ = fe_ast_unop(ctx, @$, '+', $2); }
    | '~' cexpr %prec UNARY          { $$ = fe_ast_unop(ctx, @$, '~', $2); }
    | '!' cexpr %prec UNARY          { $$ = fe_ast_unop(ctx, @$, '!', $2); }
    | cexpr '+' cexpr                { $$ = fe_ast_binop(ctx, @$, '+', $1, $3); }
    | cexpr '-' cexpr                { $$ = fe_ast_binop(ctx, @$, '-', $1, $3); }
    | cexpr '*' cexpr                { $$ = fe_ast_binop(ctx, @$, '*', $1, $3); }
    | cexpr '/' cexpr                { $$ = fe_ast_binop(ctx, @$, '/', $1, $3); }
    | cexpr '%' cexpr                { $$ = fe_ast_binop(ctx, @$, '%', $1, $3); }
    | cexpr SHL cexpr                { $$ = fe_ast_binop(ctx, @$, SHL, $1, $3); }
    | cexpr SHR cexpr                { $$ = fe_ast_binop(ctx, @$, SHR, $1, $3); }
    | cexpr '&' cexpr                { $$ = fe_ast_binop(ctx, @$, '&', $1, $3); }
    | cexpr '^' cexpr                { $$ = fe_ast_binop(ctx, @$, '^', $1, $3); }
    | cexpr '|' cexpr                { $$ = fe_ast_binop(ctx, @$, '|', $1, $3); }
    | cexpr '<' cexpr                { $$ = fe_ast_binop(ctx, @$, '<', $1, $3); }
    | cexpr '>' cexpr                { $$ = fe_ast_binop(ctx, @$, '>', $1, $3); }
    | cexpr LE cexpr                 { $$ = fe_ast_binop(ctx, @$, LE, $1, $3); }
    | cexpr GE cexpr                 { $$ = fe_ast_binop(ctx, @$, GE, $1, $3); }
    | cexpr EQ cexpr                 { $$ = fe_ast_binop(ctx, @$, EQ, $1, $3); }
    | cexpr NE cexpr                 { $$ = fe_ast_binop(ctx, @$, NE, $1, $3); }
    | cexpr ANDAND cexpr             { $$ = fe_ast_binop(ctx, @$, ANDAND, $1, $3); }
    | cexpr OROR cexpr               { $$ = fe_ast_binop(ctx, @$, OROR, $1, $3); }
    | cexpr '?' cexpr ':' cexpr      { $$ = fe_ast_cond(ctx, @$, $1, $3, $5); }
    ;

%%

static void fe_yyerror(YYLTYPE *loc, void *scanner, fe_ctx_t *ctx, const char *msg)
{
    (void)scanner;
    if (ctx->lex_err_at == loc->begin + 1)
        return;                 /* the scanner already reported this token */
    fe_error(ctx, *loc, "%s", msg);
}

int fe_parse(fe_ctx_t *c)
{
    yyscan_t scanner;
    if (fe_yylex_init_extra(c, &scanner))
        return 1;
    YY_BUFFER_STATE b = fe_yy_scan_bytes(c->text, (int)c->len, scanner);
    c->lexoff = 0;
    int rc = fe_yyparse(scanner, c);
    fe_yy_delete_buffer(b, scanner);
    fe_yylex_destroy(scanner);
    if (rc && c->nerr == 0)
        fe_error(c, (fe_span_t){ 0, 0 }, "parse failed");
    return (int)c->nerr;
}
