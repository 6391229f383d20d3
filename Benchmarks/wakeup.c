/*
 * How long a thread asleep on one core takes to run after another core wakes it: the cost of
 * every hand-over between threads. On the bench machines (Firecracker VMs, no cpuidle driver)
 * an idle vCPU answers the wake-up's interrupt late: p50 20-40 us, p90 about 1 ms, p99 5-11 ms
 * (2026-12-06). docs/performance.md, "One file, as a script asks".
 *
 * Build: gcc -O2 -pthread -o wakeup Benchmarks/wakeup.c    Run: ./wakeup [pin]
 * (pin: the waker on core 1, the sleeper on core 0; without it the waker goes where it likes)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sched.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int go; static struct timespec sent;
static double now_us(void){struct timespec t; clock_gettime(CLOCK_MONOTONIC,&t); return t.tv_sec*1e6+t.tv_nsec/1e3;}
static double lat[1000];
static void *waiter(void *arg){
  cpu_set_t s; CPU_ZERO(&s); CPU_SET(0,&s); pthread_setaffinity_np(pthread_self(),sizeof s,&s);
  for(int i=0;i<200;i++){
    pthread_mutex_lock(&m); while(go!=1) pthread_cond_wait(&c,&m); double t=now_us(); go=0; pthread_mutex_unlock(&m);
    lat[i]=t-(sent.tv_sec*1e6+sent.tv_nsec/1e3);
  }
  return 0;
}
int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
int main(int argc,char**argv){
  int pin1 = argc>1;
  pthread_t t; pthread_create(&t,0,waiter,0);
  if (pin1) { cpu_set_t s; CPU_ZERO(&s); CPU_SET(1,&s); sched_setaffinity(0,sizeof s,&s); }
  for(int i=0;i<200;i++){
    usleep(2000 + rand()%3000);
    pthread_mutex_lock(&m); clock_gettime(CLOCK_MONOTONIC,&sent); go=1; pthread_cond_signal(&c); pthread_mutex_unlock(&m);
    while (1) { pthread_mutex_lock(&m); int g=go; pthread_mutex_unlock(&m); if(!g) break; usleep(100);} 
  }
  pthread_join(t,0);
  qsort(lat,200,sizeof(double),cmp);
  printf("wake latency us: p50 %.0f p90 %.0f p99 %.0f max %.0f\n",lat[100],lat[180],lat[198],lat[199]);
}
