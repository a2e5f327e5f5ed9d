/* Two threads work on the two halves of one 32-byte array with libc's string
 * functions, each only on its own half: clean. A checker that counted more
 * bytes than a function really touches (all n of strncmp, the whole
 * destination of strcat, past the match of strchr/memchr/strstr) would report
 * a race between the halves. Every call goes through a volatile pointer so
 * that libc runs it (no inline expansion). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

char text[32];
int results[2];

char *(*volatile copy)(char *, const char *) = strcpy;
char *(*volatile append)(char *, const char *) = strcat;
char *(*volatile copy_n)(char *, const char *, size_t) = strncpy;
size_t (*volatile length)(const char *) = strlen;
size_t (*volatile length_n)(const char *, size_t) = strnlen;
int (*volatile compare)(const char *, const char *) = strcmp;
int (*volatile compare_n)(const char *, const char *, size_t) = strncmp;
char *(*volatile find)(const char *, int) = strchr;
char *(*volatile find_last)(const char *, int) = strrchr;
char *(*volatile find_sub)(const char *, const char *) = strstr;
void *(*volatile find_byte)(const void *, int, size_t) = memchr;
char *(*volatile duplicate)(const char *) = strdup;

static int work(char *half) {
  int score = 0;
  copy_n(half, "ab", 3);                         /* writes 3 bytes: "ab\0" */
  append(half, "cd");                            /* "abcd": touches 5 bytes */
  score += length(half) == 4;                    /* reads 5 */
  score += length_n(half, 16) == 4;              /* reads 5 */
  score += compare(half, "abcd") == 0;           /* reads 5 */
  score += compare_n(half, "abxx", 16) != 0;     /* reads 3: stops at 'c' */
  score += find(half, 'b') == half + 1;          /* reads 2 */
  score += find_last(half, 'a') == half;         /* reads 5 */
  score += find_sub(half, "bc") == half + 1;     /* reads 3 */
  score += find_byte(half, 'c', 16) == half + 2; /* reads 3 */
  char *d = duplicate(half);
  score += d != 0 && d[3] == 'd';
  free(d);
  copy(half, "wxyz"); /* writes 5 */
  score += half[3] == 'z';
  return score;
}

static void *second_half(void *arg) {
  (void)arg;
  results[1] = work(text + 16);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, second_half, 0);
  results[0] = work(text);
  pthread_join(t, 0);
  return results[0] == 10 && results[1] == 10 ? 0 : 1;
}
