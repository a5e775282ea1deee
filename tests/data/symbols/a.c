#include <stdio.h>

/* doc */
struct point {
    int x;
};

typedef struct {
    int y;
} vec;

typedef struct node {
    struct node *next;
} node_t;

static int *make(int n) {
    return 0;
}

enum color { RED };

int main(int argc, char **argv) {
    return 0;
}
